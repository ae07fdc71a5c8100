import { teamAt, type Config } from '../rl/config';
import { deadlineAt, type DeadlineSettings } from '../rl/deadline';

/**
 * An honest time left for a training run, for the page's readout and the command line's ETA.
 *
 * An update's cost grows with its deadline: it plays `tasksPerUpdate * groupSize` rollouts of
 * `agents` agents (fewer while the team schedule grows the team: rl/config.ts `teamAt`) for up to
 * `Tmax(u)` minutes, and learns from every decision. So the model is
 *
 *     seconds(update u) ≈ a + b * work(u),   work(u) = agents(u) * Tmax(u) * rollouts  (agent-minutes)
 *
 * with `a` (a fixed cost per update) and `b` (seconds per agent-minute) fitted online, by least
 * squares, to the measured times of the updates so far; the time left is the model summed over the
 * updates still to come, whose deadlines the schedule fixes in advance (rl/deadline.ts). A rate
 * measured at the start (short deadlines) would otherwise promise the end (long ones) too soon.
 */

/** The settings that fix an update's work. */
export type WorkSettings = DeadlineSettings & Pick<Config, 'agents' | 'tasksPerUpdate' | 'groupSize' | 'structure' | 'teamStart' | 'teamRamp'>;

/** Agent-minutes update `u` (0-based, imitation included) plays at most: its agents x its deadline x rollouts. */
export function updateWork(c: WorkSettings, u: number): number {
  return teamAt(c, u) * deadlineAt(c, u) * c.tasksPerUpdate * c.groupSize;
}

/** The work of updates `from` (included) to `to` (excluded). */
export function workBetween(c: WorkSettings, from: number, to: number): number {
  let w = 0;
  for (let u = Math.max(0, from); u < to; u++) w += updateWork(c, u);
  return w;
}

/** One measured stretch of training: `updates` updates, of `work` agent-minutes in all, took `seconds`. */
export interface CostSpan {
  updates: number;
  work: number;
  seconds: number;
}

/** The fitted cost: seconds per update and seconds per agent-minute. */
export interface CostFit {
  perUpdate: number;
  perWork: number;
}

/** How the fit weighs the spans. */
export interface FitOptions {
  /** Updates back at which a span weighs half as much as the newest (the machine's speed drifts). */
  halfLifeUpdates: number;
  /**
   * Pull of the fixed cost towards 0, as a share of the data's own weight: early in a run the
   * deadlines differ little, so the data hardly tell a fixed cost from a cost per agent-minute,
   * and a fixed cost fitted from noise would promise the long updates to come too cheap. With
   * deadlines that differ, the data outweigh it.
   */
  shrink: number;
}

export const DEFAULT_FIT: FitOptions = { halfLifeUpdates: 100, shrink: 0.05 };

/**
 * Least squares of seconds ≈ a * updates + b * work over `spans` (newest last), weighted by age,
 * with a and b at least 0 and a pulled towards 0 (`shrink`); null without a span of positive work.
 */
export function fitCost(spans: readonly CostSpan[], options: Partial<FitOptions> = {}): CostFit | null {
  const o = { ...DEFAULT_FIT, ...options };
  let sNN = 0;
  let sNW = 0;
  let sWW = 0;
  let sNS = 0;
  let sWS = 0;
  let age = 0;
  for (let i = spans.length - 1; i >= 0; i--) {
    const x = spans[i];
    const w = Math.pow(0.5, age / o.halfLifeUpdates);
    age += x.updates;
    if (!(x.seconds >= 0) || !(x.work >= 0)) continue;
    sNN += w * x.updates * x.updates;
    sNW += w * x.updates * x.work;
    sWW += w * x.work * x.work;
    sNS += w * x.updates * x.seconds;
    sWS += w * x.work * x.seconds;
  }
  if (!(sWW > 0)) return null;
  const through0 = (): CostFit => ({ perUpdate: 0, perWork: Math.max(0, sWS / sWW) });
  // Normal equations with the ridge term on a: [sNN(1+shrink) sNW; sNW sWW] [a b] = [sNS sWS].
  const n = sNN * (1 + o.shrink);
  const det = n * sWW - sNW * sNW;
  if (!(det > 1e-12 * n * sWW)) return through0();
  const a = (sNS * sWW - sNW * sWS) / det;
  const b = (n * sWS - sNW * sNS) / det;
  if (a < 0) return through0();
  if (b < 0) return { perUpdate: Math.max(0, sNS / n), perWork: 0 };
  return { perUpdate: a, perWork: b };
}

/** Options of a TimeLeftModel. */
export interface TimeLeftOptions extends FitOptions {
  /** No time left is given before this many spans are measured (the first after a start is not counted). */
  minSpans: number;
  /** ...nor before they cover this many seconds. */
  minSeconds: number;
  /** Spans kept (the oldest are dropped; their weight is small by then). */
  maxSpans: number;
}

export const DEFAULT_TIME_LEFT: TimeLeftOptions = { ...DEFAULT_FIT, minSpans: 1, minSeconds: 1, maxSpans: 2000 };

/**
 * The time left to a run's last update from the updates seen so far: call `start` when training
 * (re)starts, `observe` when more updates are done, `pause` when it stops, `reset` for a new run;
 * `secondsLeft` sums the fitted cost over the updates to come. Only running time is measured; the
 * first stretch after each start is not (it carries the worker's start-up and first compile).
 */
export class TimeLeftModel {
  private spans: CostSpan[] = [];
  private last: { t: number; count: number } | null = null;
  /** The last count seen, kept over a pause: a start from fewer updates is a new run. */
  private seen = 0;
  private skipNext = false;
  private readonly opts: TimeLeftOptions;

  constructor(options: Partial<TimeLeftOptions> = {}) {
    this.opts = { ...DEFAULT_TIME_LEFT, ...options };
  }

  /** Training (re)starts at `t` (ms) with `count` updates done; from fewer updates than before, it is a new run. */
  start(t: number, count: number): void {
    if (count < this.seen) this.reset();
    this.seen = count;
    this.last = { t, count };
    this.skipNext = true;
  }

  /** Training stopped: the time until the next start is not measured (the spans so far are kept). */
  pause(): void {
    this.last = null;
  }

  /** A new run: everything measured is forgotten. */
  reset(): void {
    this.spans = [];
    this.last = null;
    this.seen = 0;
  }

  /** `count` updates are done at `t` (ms) under settings `c`; a count that went back is a new run from there. */
  observe(t: number, count: number, c: WorkSettings): void {
    const last = this.last;
    if (!last) return;
    if (count < last.count) {
      this.reset();
      this.start(t, count);
      return;
    }
    if (count === last.count) return;
    if (this.skipNext) this.skipNext = false;
    else {
      this.spans.push({ updates: count - last.count, work: workBetween(c, last.count, count), seconds: (t - last.t) / 1000 });
      if (this.spans.length > this.opts.maxSpans) this.spans.shift();
    }
    this.last = { t, count };
    this.seen = count;
  }

  /** The fitted cost, or null while too little is measured. */
  fit(): CostFit | null {
    if (this.spans.length < this.opts.minSpans) return null;
    if (this.spans.reduce((s, x) => s + x.seconds, 0) < this.opts.minSeconds) return null;
    return fitCost(this.spans, this.opts);
  }

  /**
   * Seconds left at `now` (ms) until `target` updates under settings `c`: the fitted cost of the
   * updates still to come, less the time already spent on the one under way; 0 when done, null
   * while too little is measured or when not running.
   */
  secondsLeft(now: number, target: number, c: WorkSettings): number | null {
    const last = this.last;
    if (last && last.count >= target) return 0;
    const f = this.fit();
    if (!last || !f) return null;
    const left = f.perUpdate * (target - last.count) + f.perWork * workBetween(c, last.count, target) - (now - last.t) / 1000;
    return Math.max(0, left);
  }
}
