/** What the claims' evaluations share: reading the baselines, series over seeds, the discovery and crossover rules, table rows. */
import type { OrgSummary } from '../../../src/rl/compare';
import { costsOf } from '../../../src/rl/config';
import { mean, std, type WorkSummary } from '../../../src/sim/evaluate';
import type { RaceResult, TimeSummary } from '../../../src/sim/race';
import { asNumber, type Outcome, type Part, perSeed, pm } from '../rules';
import type { Series } from '../svg';
import type { Baseline, ClaimContext, ConditionRun, CurvePoint } from './types';

export const org = (b: Baseline, name: OrgSummary['org']): OrgSummary => {
  const o = b.orgs.find((x) => x.org === name);
  if (!o) throw new Error(`missing baseline ${name}`);
  return o;
};
export const raceOf = (b: Baseline, name: RaceResult['org']): RaceResult => {
  const r = b.race.find((x) => x.org === name);
  if (!r) throw new Error(`missing race ${name}`);
  return r;
};
export const median = (t: TimeSummary) => asNumber(t.median);
export const fmtTime = (xs: number[]) => pm(xs, 1);
export const vs = (la: string, a: number[], lb: string, b: number[], digits = 3) =>
  `${la} ${pm(a, digits)} (${perSeed(a, digits)}) vs ${lb} ${pm(b, digits)} (${perSeed(b, digits)})`;

/** Rolling mean over the last `w` values. */
export function rolling(xs: readonly number[], w: number): number[] {
  const out: number[] = [];
  let s = 0;
  for (let i = 0; i < xs.length; i++) {
    s += xs[i];
    if (i >= w) s -= xs[i - w];
    out.push(s / Math.min(i + 1, w));
  }
  return out;
}

/** Mean over seeds of equally indexed series (shorter series end early). */
export function meanSeries(series: readonly (readonly number[])[]): number[] {
  const n = Math.max(0, ...series.map((s) => s.length));
  return Array.from({ length: n }, (_, i) => mean(series.filter((s) => i < s.length).map((s) => s[i])));
}

/** sd over seeds of equally indexed series. */
export function sdSeries(series: readonly (readonly number[])[]): number[] {
  const n = Math.max(0, ...series.map((s) => s.length));
  return Array.from({ length: n }, (_, i) => std(series.filter((s) => i < s.length).map((s) => s[i])));
}

/** A mean-over-seeds line with a ± sd band. */
export function seedSeries(name: string, x: readonly number[], per: readonly (readonly number[])[], dashed = false): Series {
  const m = meanSeries(per);
  const s = sdSeries(per);
  return { name, x, y: m, lo: m.map((v, i) => v - s[i]), hi: m.map((v, i) => v + s[i]), dashed };
}

export const rlcr = (run: ConditionRun) => run.curve.filter((p) => p.phase === 'rlcr');

/**
 * Coordination discovered: the first update (counting imitation updates too) from which the rolling
 * mean (`window` RLCR updates) of unblocking handoffs per episode stays at or above `ratio` times the
 * scripted organisation's handoffs at that update's deadline until the end. Returns the number of
 * updates done by then, or null if it never settles there.
 */
export function discoveryUpdate(curve: readonly CurvePoint[], scriptedHandoffs: (tmax: number) => number, window = 25, ratio = 0.5): number | null {
  const pts = curve.filter((p) => p.phase === 'rlcr');
  const roll = rolling(
    pts.map((p) => p.handoffs),
    window,
  );
  let first: number | null = null;
  for (let i = pts.length - 1; i >= 0; i--) {
    if (roll[i] >= ratio * scriptedHandoffs(pts[i].tmax)) first = i;
    else break;
  }
  return first === null ? null : pts[first].update + 1;
}

/** The first update (counted from 1) at which the rolling mean return reaches `reference(tmax)`, or null. */
export function crossoverUpdate(curve: readonly CurvePoint[], reference: (tmax: number) => number, window = 25): number | null {
  const pts = curve.filter((p) => p.phase === 'rlcr');
  const roll = rolling(
    pts.map((p) => p.ret),
    window,
  );
  for (let i = 0; i < pts.length; i++) if (roll[i] >= reference(pts[i].tmax)) return pts[i].update + 1;
  return null;
}

/** References at every distinct deadline of a set of runs, per seed index. */
export async function referencesAt(ctx: ClaimContext, id: string): Promise<Map<number, { chain: WorkSummary; scripted: WorkSummary }>[]> {
  const c = ctx.config(id);
  const runs = ctx.runs(id);
  const out: Map<number, { chain: WorkSummary; scripted: WorkSummary }>[] = [];
  for (const run of runs) {
    const m = new Map<number, { chain: WorkSummary; scripted: WorkSummary }>();
    for (const t of new Set(run.curve.map((p) => p.tmax))) m.set(t, await ctx.reference(c.family, c.agents, t, run.seed, costsOf(c)));
    out.push(m);
  }
  return out;
}

export function part(name: string, rule: string, numbers: string, outcome: Outcome): Part {
  return { name, rule, numbers, outcome };
}

export function orgRow(
  name: string,
  ret: number[],
  t90: (number | null)[],
  reached: number[],
  raceMed: number[],
  raceReached: number[],
  msgs: number[],
  handoffs: number[],
): string[] {
  const t = t90.filter((x): x is number => x !== null);
  return [
    name,
    pm(ret),
    t.length ? mean(t).toFixed(1) : '-',
    `${(100 * mean(reached)).toFixed(0)}%`,
    fmtTime(raceMed),
    `${(100 * mean(raceReached)).toFixed(0)}%`,
    mean(msgs).toFixed(1),
    mean(handoffs).toFixed(1),
  ];
}

export const ORG_HEADER = [
  'organisation',
  'return at deadline',
  'min to 90% (reached)',
  'reached 90% by deadline',
  'median min to 90%, equal compute',
  'reached in horizon',
  'msgs/episode',
  'handoffs',
];
