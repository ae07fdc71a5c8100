/**
 * What a lesson step claims the class will see, as data, and the pure judgement of a claim against
 * measured numbers. The steps declare their claims beside their text (core/lesson.ts);
 * `npm run lesson:check` (scripts/commands/experiments/lesson-check.ts) trains each step's own setup on seeds the app does
 * not show, measures every claim's `measure` (and `than`, when it is a measure too) and judges it here.
 */
import type { Config } from '../rl/config';

/** A number of a set of episodes (sim/evaluate WorkSummary) the lesson talks about. */
export type LessonStat =
  | 'ret'
  | 'duplicate'
  | 'blocked'
  | 'handoffs'
  | 'messages'
  | 'neededShare'
  | 'useful'
  | 'idle'
  | 'wastedMessages'
  | 'sidePosts'
  | 'sideShare'
  | 'caught'
  | 'attempts';

/** A number of one training update: a LessonStat of its rollouts, or the spread (sd) of their returns. */
export type TrainingStat = LessonStat | 'retStd';

/** A dashed line under the training curve: a reference organisation's return at the update's deadline (16 tasks, as the app draws it). */
export type LessonReference = 'single chain' | 'best-of-N' | 'scripted organisation';

/**
 * Who plays the fresh evaluation tasks at the final deadline after training: the trained swarm as it
 * is, muted, or with its piles idled (every pile's other agents idling instead: what the piles cost).
 */
export type LessonPlayer = 'trained swarm' | 'trained swarm, muted' | 'trained swarm, piles idled' | LessonReference;

/** Who races to 90% of the tests at equal agent-minutes (sim/race, as the organisations panel plays it). */
export type LessonRacer = 'single chain' | 'best-of-N' | 'scripted organisation' | 'trained swarm';

/**
 * A window of updates: `[a, b]` counted from `anchor`: `start` (update 1 is `[1, 1]`), `prior`
 * (the last imitation update is `[0, 0]`, the first RLCR one `[1, 1]`) or `end` (the last update is
 * `[0, 0]`, the last 30 are `[-29, 0]`).
 */
export interface UpdateWindow {
  anchor: 'start' | 'prior' | 'end';
  updates: readonly [number, number];
}

/** A setting the class changes while the run trains (a slider dragged): `patch` applies from update `at` + 1 on (as a live change does). */
export interface LessonDrag {
  at: number;
  patch: Partial<Config>;
}

/**
 * Something measured on a step's setup, or on a variant of it: `variant` on top of the step's
 * settings from the start (an ablation the class switches on before Train), `drag` a change made
 * while it trains.
 */
export type LessonMeasure = (
  | /** The mean of `stat` over a window of the training curve (each update's batch of rollouts), or its sd (`spread`); `minus`: less the reference line at each update's deadline. */
    { of: 'training'; stat: TrainingStat; window: UpdateWindow; minus?: LessonReference; spread?: boolean }
    /** The mean of a reference line (the dashed line under the curve) over a window of updates. */
  | { of: 'reference'; reference: LessonReference; window: UpdateWindow }
  /** The first update from which the swarm's return, averaged over the `smooth` updates up to it, stays above a reference line to the end (never: Infinity). */
  | { of: 'overtakes'; reference: LessonReference; smooth: number }
  /** `stat` of `player` on `tasks` fresh tasks at the final deadline, after training. */
  | { of: 'evaluation'; player: LessonPlayer; stat: LessonStat; tasks: number }
  /** The median minutes of `racer` to 90% of the tests on `tasks` fresh tasks (none within the horizon: Infinity). */
  | { of: 'race'; racer: LessonRacer; tasks: number }
) & { variant?: Partial<Config>; drag?: LessonDrag };

/** One observable statement of a step: `measure` is `is` `than` (by at least / within `by`) on every seed. */
export interface LessonClaim {
  /** The words of the step this claim makes true (or a short paraphrase). */
  says: string;
  measure: LessonMeasure;
  is: 'above' | 'below' | 'about';
  /** A number, or another measure on the same seed. */
  than: number | LessonMeasure;
  /** `above` / `below`: by more than this (default 0); `about`: within this (required). */
  by?: number;
}

/** One seed's numbers for a claim: the measure's value and what it is compared with. */
export interface ClaimReading {
  seed: number;
  value: number;
  than: number;
}

/** A claim judged on one seed. */
export interface SeedVerdict extends ClaimReading {
  pass: boolean;
}

/** A claim judged on every seed: it holds only if it holds on each (the class sees one run, any seed). */
export interface ClaimVerdict {
  claim: LessonClaim;
  seeds: SeedVerdict[];
  pass: boolean;
}

/** Whether `value` is `claim.is` `than` (NaN never passes; Infinity is a "never" and compares as a number). */
export function holds(claim: Pick<LessonClaim, 'is' | 'by'>, value: number, than: number): boolean {
  if (Number.isNaN(value) || Number.isNaN(than)) return false;
  const by = claim.by ?? 0;
  switch (claim.is) {
    case 'above':
      return value > than + by;
    case 'below':
      return value < than - by;
    case 'about':
      if (!(by > 0)) throw new RangeError(`claim "${'says' in claim ? (claim as LessonClaim).says : ''}": "about" needs a tolerance (by > 0)`);
      return Number.isFinite(value) && Math.abs(value - than) <= by;
  }
}

/** Judges `claim` on the readings of its seeds; a claim with no reading fails (nothing was measured). */
export function judgeClaim(claim: LessonClaim, readings: readonly ClaimReading[]): ClaimVerdict {
  const seeds = readings.map((r) => ({ ...r, pass: holds(claim, r.value, r.than) }));
  return { claim, seeds, pass: seeds.length > 0 && seeds.every((s) => s.pass) };
}

/** The updates (1-based, inclusive) a window covers in a run of `total` updates with `prior` imitation updates, clipped to the run. */
export function windowUpdates(w: UpdateWindow, total: number, prior: number): [number, number] {
  const base = w.anchor === 'start' ? 0 : w.anchor === 'prior' ? prior : total;
  const from = Math.max(1, base + w.updates[0]);
  const to = Math.min(total, base + w.updates[1]);
  return [from, to];
}

/** The mean (or sd, `spread`) of `values[from-1 .. to-1]`; NaN for an empty window. */
export function windowStat(values: readonly number[], from: number, to: number, spread = false): number {
  const xs = values.slice(from - 1, to);
  if (!xs.length) return NaN;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  if (!spread) return m;
  if (xs.length < 2) return 0;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
}

/**
 * The first update (1-based) from which the mean of `swarm` over the `smooth` updates up to it stays
 * above `reference` (same length, the line at each update's deadline) to the end; Infinity if it
 * never does (or is not above at the end).
 */
export function overtakesAt(swarm: readonly number[], reference: readonly number[], smooth: number): number {
  const n = Math.min(swarm.length, reference.length);
  const w = Math.max(1, Math.round(smooth));
  let from = Infinity;
  for (let u = n; u >= 1; u--) {
    const a = Math.max(1, u - w + 1);
    const above = windowStat(swarm, a, u) > windowStat(reference, a, u);
    if (!above) break;
    from = u;
  }
  return from;
}

/** A measure in a few words, for the check's table (e.g. "eval 16 tasks: trained swarm ret"). */
export function describeMeasure(m: LessonMeasure): string {
  const variant = m.variant
    ? ` [${Object.entries(m.variant)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ')}]`
    : '';
  switch (m.of) {
    case 'training': {
      const [a, b] = m.window.updates;
      const at =
        m.window.anchor === 'start'
          ? `updates ${a}-${b}`
          : m.window.anchor === 'prior'
            ? `prior${a >= 0 ? '+' : ''}${a}..${b >= 0 ? '+' : ''}${b}`
            : `last ${b - a + 1}`;
      return `training ${at}: ${m.spread ? 'sd of ' : ''}${m.stat}${m.minus ? ` − ${m.minus}` : ''}${variant}`;
    }
    case 'reference': {
      const [a, b] = m.window.updates;
      return `${m.reference}'s line, ${m.window.anchor === 'start' ? `updates ${a}-${b}` : `${m.window.anchor}${a >= 0 ? '+' : ''}${a}..${b >= 0 ? '+' : ''}${b}`}${variant}`;
    }
    case 'overtakes':
      return `update the swarm passes ${m.reference} (mean of ${m.smooth})${variant}`;
    case 'evaluation':
      return `${m.tasks} fresh tasks: ${m.player} ${m.stat}${variant}`;
    case 'race':
      return `race, ${m.tasks} tasks: ${m.racer} median min to 90%${variant}`;
  }
}
