/** One observation: `count` updates done at `t` (ms, any monotonic clock). */
export interface RateSample {
  t: number;
  count: number;
}

/** What the meter can say now. */
export interface RateReading {
  /** Updates per second over the window, or null while there is too little to say. */
  perSecond: number | null;
  /** Seconds until `target` updates at that rate, counted from `now`; null without a rate; 0 when done. */
  etaSeconds: number | null;
}

/** Options of a RateMeter. */
export interface RateMeterOptions {
  /** Span of the smoothing window (ms). */
  windowMs: number;
  /** No rate is given before the samples span at least this long (ms): no nonsense in the first second. */
  minSpanMs: number;
  /** Samples kept even when older than the window, so a slow run (one update in 20 s) still has a rate. */
  minSamples: number;
}

export const DEFAULT_RATE_OPTIONS: RateMeterOptions = { windowMs: 10_000, minSpanMs: 1_000, minSamples: 3 };

/**
 * Training speed from update counts seen over time: a rate smoothed over the last several seconds
 * and the time left to a target count. Only running time counts: `pause()` forgets the window, and
 * `start()` opens a new one from the count at that moment, so a pause does not drag the rate down.
 */
export class RateMeter {
  private samples: RateSample[] = [];
  private readonly opts: RateMeterOptions;

  constructor(options: Partial<RateMeterOptions> = {}) {
    this.opts = { ...DEFAULT_RATE_OPTIONS, ...options };
  }

  /** Training (re)starts at `t` with `count` updates done. */
  start(t: number, count: number): void {
    this.samples = [{ t, count }];
  }

  /** Training stopped: nothing is measured until the next start. */
  pause(): void {
    this.samples = [];
  }

  /** `count` updates were done at `t`; ignored when not running or when the count went back (a reset). */
  observe(t: number, count: number): void {
    const last = this.samples.at(-1);
    if (!last) return;
    if (count < last.count) {
      this.start(t, count);
      return;
    }
    if (count === last.count) return;
    this.samples.push({ t, count });
    const keepFrom = t - this.opts.windowMs;
    while (this.samples.length > this.opts.minSamples && this.samples[1].t <= keepFrom) this.samples.shift();
  }

  /** The smoothed rate, and the time left to `target` updates as of `now`. */
  read(now: number, target: number): RateReading {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.count >= target) return { perSecond: null, etaSeconds: last && last.count >= target ? 0 : null };
    const span = last.t - first.t;
    if (span < this.opts.minSpanMs || last.count === first.count) return { perSecond: null, etaSeconds: null };
    const perSecond = ((last.count - first.count) * 1000) / span;
    const left = (target - last.count) / perSecond - (now - last.t) / 1000;
    return { perSecond, etaSeconds: Math.max(0, left) };
  }
}

/** Seconds as a short duration: "45 s", "3 min 05 s", "1 h 02 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}
