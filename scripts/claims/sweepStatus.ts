/**
 * Progress across the lab (issue 27), free of BullMQ and TF.js: what a worker reports as a run's
 * BullMQ job progress (checked with zod: it comes from the network), and the coordinator's picture of
 * its sweep built from those reports: runs done, running (on which worker, at which update), waiting
 * and failed, updates done and an ETA; drawn as the `--jobs` progress bar and, with
 * `--status-json FILE`, written to a file for scripts as it changes.
 */
import { z } from 'zod';
import { writeAtomic } from '../lib/cache';
import { ProgressBar, type ProgressOut } from '../lib/progress';

/** A run's job progress as a worker reports it: who trains it and, once training runs, at which update. */
export const JobProgress = z.strictObject({
  worker: z.string().max(200),
  update: z.number().int().min(0).max(100_000_000).optional(),
  updates: z.number().int().min(0).max(100_000_000).optional(),
});
export type JobProgress = z.infer<typeof JobProgress>;

/** What a training child process sends its worker over the IPC channel, once per update. */
export const ChildProgress = z.strictObject({ kind: z.literal('progress'), update: z.number().int().min(0), updates: z.number().int().min(0) });

export type RunState = 'waiting' | 'running' | 'done' | 'failed';

/** One run of the sweep in the status file. */
export interface RunStatus {
  /** The run's BullMQ job id. */
  job: string;
  /** What it is, e.g. `coupled seed 2` or `seed 3`. */
  run: string;
  state: RunState;
  /** The worker training it (or that trained it), e.g. `host pid 123`; null before a worker took it. */
  worker: string | null;
  /** Updates done (all of them once done). */
  update: number;
  updates: number;
  /** ISO times: when this coordinator put it on the queue, a worker started it, its result entered the cache. */
  queuedAt: string | null;
  startedAt: string | null;
  doneAt: string | null;
  /** BullMQ's times of a done run's job (ISO): when the worker that finished it took it, and when it finished. */
  processedAt: string | null;
  finishedAt: string | null;
  /** The run's own training wall-clock as its record says, and its worker's training child's start to exit (done runs). */
  trainSeconds: number | null;
  childSeconds: number | null;
  /** Why it failed (failed runs). */
  reason: string | null;
}

/** The status file of `--status-json FILE` (and `SweepTracker.status()`). */
export interface SweepStatus {
  format: 'swarm-sweep-status';
  version: 1;
  queue: string;
  /** The Redis address with its credentials as `***`. */
  redis: string;
  sweep: string;
  /** When this status was taken (ISO), and seconds since the coordinator started. */
  at: string;
  elapsedSeconds: number;
  /** True once every run is done or failed and the coordinator stopped waiting. */
  finished: boolean;
  runs: { total: number; done: number; running: number; waiting: number; failed: number };
  updates: { total: number; done: number };
  /** Updates per second seen in this coordinator's lifetime (training reported by workers), and the seconds left at that rate; null before any. */
  updatesPerSecond: number | null;
  etaSeconds: number | null;
  list: RunStatus[];
}

interface Run extends RunStatus {
  /** The update at which this coordinator first heard of the run's training (for the rate). */
  seenFrom: number | null;
}

export interface TrackerOptions {
  queue: string;
  redis: string;
  sweep: string;
  runs: readonly { job: string; run: string; updates: number }[];
  /** Draw the bar here (null: no bar, as with --quiet). */
  out: ProgressOut | null;
  /** Write the status to this file as it changes (atomically, at most once a second between runs' events). */
  statusFile: string | null;
  /** The clock in ms (Date.now by default). */
  now?: () => number;
}

/** How often at most a progress report rewrites the status file. */
const WRITE_EVERY_MS = 1000;

/** The coordinator's picture of its sweep, fed by the workers' progress reports and the results. */
export class SweepTracker {
  private readonly runs = new Map<string, Run>();
  private readonly now: () => number;
  private readonly t0: number;
  private readonly bar: ProgressBar | null;
  private lastWrite = -Infinity;
  private pending: NodeJS.Timeout | null = null;
  private finished = false;

  constructor(private readonly o: TrackerOptions) {
    this.now = o.now ?? Date.now;
    this.t0 = this.now();
    for (const r of o.runs)
      this.runs.set(r.job, {
        ...r,
        state: 'waiting',
        worker: null,
        update: 0,
        queuedAt: null,
        startedAt: null,
        doneAt: null,
        processedAt: null,
        finishedAt: null,
        trainSeconds: null,
        childSeconds: null,
        reason: null,
        seenFrom: null,
      });
    const total = [...this.runs.values()].reduce((s, r) => s + r.updates, 0);
    this.bar = o.out ? new ProgressBar(`sweep ${o.queue}`, Math.max(1, total), o.out, { now: this.now }) : null;
  }

  private iso = () => new Date(this.now()).toISOString();

  /** The run was put on the queue (or found there). */
  queued(job: string): void {
    const r = this.runs.get(job);
    if (!r) return;
    r.queuedAt ??= this.iso();
    this.changed(true);
  }

  /** A worker's progress report; returns true when it names a worker not seen on this run before (a start, or a takeover). */
  progress(job: string, p: JobProgress): boolean {
    const r = this.runs.get(job);
    if (!r || r.state === 'done' || r.state === 'failed') return false;
    const fresh = r.worker !== p.worker;
    if (fresh) {
      r.worker = p.worker;
      r.startedAt = this.iso();
      r.seenFrom = null;
    }
    r.state = 'running';
    r.update = Math.min(p.update ?? 0, r.updates);
    r.seenFrom ??= r.update;
    this.changed(fresh);
    return fresh;
  }

  /** Its result entered the cache. */
  done(
    job: string,
    worker: string,
    trainSeconds: number,
    times: { processedAt: string | null; finishedAt: string | null; childSeconds: number | null } = { processedAt: null, finishedAt: null, childSeconds: null },
  ): void {
    const r = this.runs.get(job);
    if (!r) return;
    Object.assign(r, { state: 'done', worker, update: r.updates, doneAt: this.iso(), trainSeconds, ...times });
    this.changed(true);
  }

  failed(job: string, reason: string): void {
    const r = this.runs.get(job);
    if (!r) return;
    Object.assign(r, { state: 'failed', reason, doneAt: this.iso() });
    this.changed(true);
  }

  /** The coordinator stopped waiting: the last status is written at once. */
  finish(): void {
    this.finished = true;
    if (this.pending) clearTimeout(this.pending);
    this.pending = null;
    this.write();
  }

  status(): SweepStatus {
    const list = [...this.runs.values()];
    const count = (s: RunState) => list.filter((r) => r.state === s).length;
    const total = list.reduce((s, r) => s + r.updates, 0);
    const done = list.reduce((s, r) => s + r.update, 0);
    const seen = list.reduce((s, r) => s + (r.seenFrom === null ? 0 : r.update - r.seenFrom), 0);
    const elapsed = (this.now() - this.t0) / 1000;
    const rate = seen > 0 && elapsed > 0 ? seen / elapsed : null;
    const left = list.filter((r) => r.state !== 'failed').reduce((s, r) => s + r.updates - r.update, 0);
    return {
      format: 'swarm-sweep-status',
      version: 1,
      queue: this.o.queue,
      redis: this.o.redis,
      sweep: this.o.sweep,
      at: this.iso(),
      elapsedSeconds: +elapsed.toFixed(3),
      finished: this.finished,
      runs: { total: list.length, done: count('done'), running: count('running'), waiting: count('waiting'), failed: count('failed') },
      updates: { total, done },
      updatesPerSecond: rate === null ? null : +rate.toFixed(4),
      etaSeconds: left === 0 ? 0 : rate === null ? null : Math.round(left / rate),
      list: list.map(({ seenFrom: _, ...r }) => r),
    };
  }

  /** The bar's status text: `runs 1/3 done, 2 running (coupled seed 2 on host pid 7 at 140/300, ...), 0 waiting, 0 failed`. */
  line(s: SweepStatus = this.status()): string {
    const running = s.list.filter((r) => r.state === 'running').map((r) => `${r.run} on ${r.worker} at ${r.update}/${r.updates}`);
    return `runs ${s.runs.done}/${s.runs.total} done, ${s.runs.running} running${running.length ? ` (${running.join(', ')})` : ''}, ${s.runs.waiting} waiting, ${s.runs.failed} failed`;
  }

  private changed(now: boolean): void {
    const s = this.status();
    this.bar?.update(s.updates.done, this.line(s), { rate: s.updatesPerSecond ?? 0, eta: s.etaSeconds ?? Infinity });
    if (!this.o.statusFile) return;
    if (now || this.now() - this.lastWrite >= WRITE_EVERY_MS) this.write();
    else if (!this.pending) {
      this.pending = setTimeout(() => {
        this.pending = null;
        this.write();
      }, WRITE_EVERY_MS);
      this.pending.unref();
    }
  }

  private write(): void {
    if (!this.o.statusFile) return;
    this.lastWrite = this.now();
    writeAtomic(this.o.statusFile, JSON.stringify(this.status(), null, 1) + '\n');
  }
}
