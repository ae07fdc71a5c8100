import { TimeLeftModel, type WorkSettings } from '../../src/core/timeLeft';

/** Where a progress bar writes: a stream such as process.stderr, or anything with `write` (no `isTTY`: a line per 10%). */
export interface ProgressOut {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** What else a progress bar may be given. */
export interface ProgressOptions {
  /**
   * The run's settings: the ETA then sums the fitted cost of the updates to come, which grows with
   * their deadline (src/core/timeLeft.ts), instead of assuming the mean rate so far.
   */
  work?: WorkSettings;
  /** The clock (ms); performance.now by default. */
  now?: () => number;
}

/**
 * A one-line progress bar on stderr (redrawn in place on a terminal, a line per 10% otherwise).
 * `update(done)` is called once per update (count of updates done, from 0 when the bar is made).
 */
export class ProgressBar {
  private readonly now: () => number;
  private readonly start: number;
  private lastTenth = -1;
  private readonly model: TimeLeftModel | null;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly out: ProgressOut = process.stderr,
    private readonly options: ProgressOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.start = this.now();
    this.model = options.work ? new TimeLeftModel() : null;
    this.model?.start(this.start, 0);
  }

  /**
   * Shows `done` of `total` with rate, ETA and a short status text. `measured` gives the rate and the
   * ETA from elsewhere (a sweep counts only the updates it saw trained, not runs found finished).
   */
  update(done: number, status = '', measured?: { rate: number; eta: number }): void {
    const now = this.now();
    const secs = (now - this.start) / 1000;
    const rate = measured?.rate ?? done / Math.max(secs, 1e-9);
    if (this.options.work) this.model!.observe(now, done, this.options.work);
    const modelled = this.options.work ? this.model!.secondsLeft(now, this.total, this.options.work) : null;
    const eta = measured?.eta ?? modelled ?? (rate > 0 ? (this.total - done) / rate : Infinity);
    const width = 24;
    const filled = Math.round((width * done) / this.total);
    const line = `${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${this.total}  ${rate.toFixed(1)} upd/s  ETA ${formatDuration(eta)}  ${status}`;
    if (this.out.isTTY) {
      // Cut to the terminal's width: a wrapped line could not be redrawn in place.
      const width = this.out.columns ? this.out.columns - 1 : 0;
      this.out.write(`\r${(width ? line.slice(0, width) : line).padEnd(width)}`);
      if (done >= this.total) this.out.write('\n');
    } else {
      const tenth = Math.floor((10 * done) / this.total);
      if (tenth !== this.lastTenth) {
        this.lastTenth = tenth;
        this.out.write(line + '\n');
      }
    }
  }

  /** Seconds since the bar was created. */
  get elapsed(): number {
    return (this.now() - this.start) / 1000;
  }
}

/** 75 -> "1:15", 3700 -> "1:01:40". */
export function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return '--:--';
  const t = Math.round(s);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = String(t % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
