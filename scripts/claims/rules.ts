/**
 * Verdict rules of the claims: each part of a claim is decided from per-seed numbers by one of these
 * rules, and a claim's verdict from its parts. The rules are fixed here, before any measurement.
 */
import { mean, std } from '../../src/sim/evaluate';

/** The outcome of one part of a claim over the seeds. */
export type Outcome = 'pass' | 'mixed' | 'fail';
/** The verdict of a whole claim. */
export type Verdict = 'reproduced' | 'partly' | 'not reproduced';

/** One decided part of a claim: the rule in words, the numbers it read, the outcome. */
export interface Part {
  name: string;
  rule: string;
  /** The measured numbers, as text (mean ± sd over seeds, per seed). */
  numbers: string;
  outcome: Outcome;
}

/** A missing measurement (e.g. never reached a threshold) counts as +Infinity in the rules. */
export const asNumber = (x: number | null | undefined): number => (x === null || x === undefined || Number.isNaN(x) ? Infinity : x);

/** `mean ± sd` of finite values, '-' for none; non-finite values are listed as 'never'. */
export function pm(xs: readonly number[], digits = 3): string {
  const fin = xs.filter(Number.isFinite);
  if (!fin.length) return 'never';
  const head = fin.length > 1 ? `${mean(fin).toFixed(digits)} ± ${std(fin).toFixed(digits)}` : mean(fin).toFixed(digits);
  return fin.length < xs.length ? `${head} (${xs.length - fin.length} never)` : head;
}

/** Per-seed values as text, e.g. "0.943, 0.924, 0.927". */
export function perSeed(xs: readonly number[], digits = 3): string {
  return xs.map((x) => (Number.isFinite(x) ? x.toFixed(digits) : 'never')).join(', ');
}

/**
 * Paired "a exceeds b by more than `margin`" over seeds: pass if it holds in every seed, mixed if it
 * holds for the mean difference but not in every seed, fail otherwise. Infinity is allowed
 * (Infinity - Infinity counts as no difference).
 */
export function exceeds(a: readonly number[], b: readonly number[], margin = 0): Outcome {
  if (a.length !== b.length || !a.length) throw new RangeError('exceeds: need equally many values per side');
  const d = a.map((x, i) => (x === b[i] ? 0 : x - b[i]));
  if (d.every((x) => x > margin)) return 'pass';
  const fin = d.filter(Number.isFinite);
  const inf = d.filter((x) => x === Infinity).length - d.filter((x) => x === -Infinity).length;
  const meanD = fin.length === d.length ? mean(d) : inf > 0 ? Infinity : inf < 0 ? -Infinity : mean(fin);
  return meanD > margin ? 'mixed' : 'fail';
}

/** Every value below `limit`: pass; the mean below it: mixed; otherwise fail. */
export function below(xs: readonly number[], limit: number): Outcome {
  if (!xs.length) throw new RangeError('below: no values');
  if (xs.every((x) => x < limit)) return 'pass';
  return mean(xs) < limit ? 'mixed' : 'fail';
}

/** Relative change (end - start) / start per seed; a zero start gives 0 for a zero end, else +-Infinity. */
export function relativeChange(start: readonly number[], end: readonly number[]): number[] {
  return start.map((s, i) => (s === 0 ? (end[i] === 0 ? 0 : Math.sign(end[i]) * Infinity) : (end[i] - s) / Math.abs(s)));
}

/** A claim's verdict from its parts: every part passes -> reproduced; every part fails -> not reproduced; else partly. */
export function verdictOf(parts: readonly Pick<Part, 'outcome'>[]): Verdict {
  if (!parts.length) return 'not reproduced';
  if (parts.every((p) => p.outcome === 'pass')) return 'reproduced';
  if (parts.every((p) => p.outcome === 'fail')) return 'not reproduced';
  return 'partly';
}

/** The rule texts shared by every claim report. */
export const RULES_TEXT = [
  'A part **passes** when its inequality holds in every seed (paired by seed: the same seed trains both sides and plays the same evaluation tasks),',
  'is **mixed** when it holds for the mean over seeds but not in every seed, and **fails** otherwise.',
  'A claim is **reproduced** when every part passes, **not reproduced** when every part fails, and **partly** reproduced otherwise.',
  'A time that was never reached counts as infinitely slow.',
].join(' ');
