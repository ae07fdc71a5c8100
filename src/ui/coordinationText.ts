/**
 * Coordination (src/sim/coordination.ts) in words, for the training curve's marker and the line of
 * the Work, talk and waste panel: the newest talk measurement against each of the three conditions,
 * and the first measurement that met all three.
 */
import type { TalkRecord } from '../core/runFormat';
import type { UpdateMetrics } from '../rl/metrics';
import { MAX_DUPLICATE_SHARE, MIN_NEEDED_SHARE, RETURN_MARGIN, type Coordination } from '../sim/coordination';
import { markerIndex } from '../store/markers';
import { firstCoordinated, talkCoordination } from '../store/talkHistory';
import { talkWhen } from './talkText';

/** The marker's short label on the curve. */
export const COORDINATED_LABEL = 'coordinated';

/** Most decimals `apart` adds to tell a value from its limit. */
const MORE_DIGITS = 4;

/**
 * `value` and `limit` written with `digits` decimals, or more where the two would print the same
 * although they differ: a duplicate share of 15.4% against 15% reads "15.4%", not "15%", so the
 * words never show a missed condition as met.
 */
export function apart(value: number, limit: number, digits: number): [string, string] {
  for (let d = digits; ; d++) {
    const v = value.toFixed(d);
    const l = limit.toFixed(d);
    if (v !== l || value === limit || d >= digits + MORE_DIGITS) return [v, l];
  }
}

/** A share in percent with `apart`'s care: ["15.4%", "15%"] (the limit without trailing zeros). */
function percentApart(value: number, limit: number): [string, string] {
  const [v, l] = apart(value * 100, limit * 100, 0);
  return [`${v}%`, `${Number(l)}%`];
}

/** One condition of the definition applied to one measurement, in words. */
export interface ConditionWords {
  key: 'return' | 'duplicates' | 'needed';
  met: boolean;
  /** The measured value as shown ("0.934", "6%", "62%"). */
  shown: string;
  /** The condition with the value, e.g. "return 0.934, target 0.930 or more (scripted 0.950 − 0.02)". */
  text: string;
  /** The unrounded value (the return, or the share). */
  value: number;
}

const MAX_DUP_TEXT = `${Math.round(MAX_DUPLICATE_SHARE * 100)}%`;
const MIN_NEEDED_TEXT = `${Math.round(MIN_NEEDED_SHARE * 100)}%`;

/** The three conditions for measurement `r` (whose coordination is `c`), in words. */
export function conditionWords(r: TalkRecord, c: Coordination): ConditionWords[] {
  const scripted = r.scripted ?? c.target + RETURN_MARGIN;
  const [ret, target] = apart(r.ret, c.target, 3);
  const [needed] = percentApart(r.neededShare, MIN_NEEDED_SHARE);
  const [dup] = Number.isFinite(c.duplicateShare) ? percentApart(c.duplicateShare, MAX_DUPLICATE_SHARE) : [''];
  const duplicates = dup
    ? { shown: dup, text: `duplicate work ${dup} of useful work, at most ${MAX_DUP_TEXT}` }
    : { shown: 'all', text: `duplicate work with no useful work, at most ${MAX_DUP_TEXT} of useful work` };
  return [
    {
      key: 'return',
      met: c.returnMet,
      shown: ret,
      text: `return ${ret}, target ${target} or more (scripted ${scripted.toFixed(3)} − ${RETURN_MARGIN})`,
      value: r.ret,
    },
    { key: 'duplicates', met: c.splitMet, shown: duplicates.shown, text: duplicates.text, value: c.duplicateShare },
    { key: 'needed', met: c.talkMet, shown: needed, text: `needed deliveries ${needed}, at least ${MIN_NEEDED_TEXT}`, value: r.neededShare },
  ];
}

/** What the panel's coordination line says about the measurements up to the one on screen. */
export interface CoordinationWords {
  /** Updates done at the first measurement (up to the one on screen) that met all three; null if none did. */
  first: number | null;
  /** Updates done at the measurement on screen. */
  updates: number;
  /** Whether the measurement on screen meets all three; null when it cannot tell. */
  met: boolean | null;
  /** One sentence: coordinated at which update (kept once reached), and how the measurement on screen fares. */
  headline: string;
  /** Its three conditions in words; empty when it cannot tell. */
  conditions: ConditionWords[];
  /** The measurement's coordination, when it can tell. */
  coordination: Coordination | null;
}

/**
 * The coordination line for measurement `latest` (the newest on screen) of a run whose measurements
 * are `history`: the first measurement at or before it that met all three conditions stays named
 * even when `latest` misses one.
 */
export function coordinationWords(history: readonly TalkRecord[], latest: TalkRecord): CoordinationWords {
  const first = firstCoordinated(history.filter((r) => r.updates <= latest.updates))?.updates ?? null;
  const c = talkCoordination(latest);
  const when = talkWhen(latest);
  const count = c ? [c.returnMet, c.splitMet, c.talkMet].filter(Boolean).length : 0;
  const reached = first === null ? '' : `Coordinated ${first === 0 ? 'before training' : `at update ${first}`}`;
  const latestAt = `Latest measurement (${when})`;
  let headline: string;
  if (!c) {
    const recordedWithout = latest.useful === undefined || latest.duplicate === undefined || latest.scripted === undefined;
    if (reached) headline = `${reached}. ${latestAt}: ${recordedWithout ? 'recorded without what coordination needs' : 'could not be taken'}.`;
    else if (recordedWithout) headline = 'Not known: this run was recorded before coordination was measured.';
    else headline = `Not known: the latest measurement (${when}) could not be taken.`;
  } else if (reached)
    headline =
      c.met && first === latest.updates ? `${reached}: all three conditions met.` : `${reached}. ${latestAt}: ${c.met ? 'all three' : `${count} of 3`} met.`;
  else headline = `Not coordinated yet. ${latestAt}: ${count} of 3 met.`;
  return { first, updates: latest.updates, met: c ? c.met : null, headline, conditions: c ? conditionWords(latest, c) : [], coordination: c };
}

/** Where the curve marks coordination, and what its tooltip says. */
export interface CoordinationMark {
  /** Updates done at the first coordinated measurement. */
  updates: number;
  /** Position in `metrics` of the update it was measured after (the first, for a measurement before training). */
  index: number;
  label: string;
  /** Names the update and the three conditions as measured. */
  title: string;
}

/**
 * The curve's coordination marker for a run with updates `metrics` whose first coordinated
 * measurement is `r` (`firstCoordinated` of its measurements): at the update after which it was
 * taken; null without one (none met all three, or none can tell: an older run file), or while that
 * update is not on the curve.
 */
export function coordinationMark(r: TalkRecord | undefined, metrics: readonly UpdateMetrics[]): CoordinationMark | null {
  const c = r && talkCoordination(r);
  if (!r || !c) return null;
  const index = markerIndex(metrics, Math.max(0, r.updates - 1));
  if (index < 0 || (r.updates > 0 && metrics[index].update !== r.updates - 1)) return null;
  const [ret, dup, needed] = conditionWords(r, c);
  const title =
    `Coordinated ${r.updates === 0 ? 'before training' : `at update ${r.updates}`}, on ${r.tasks} fresh tasks at the ${r.tmax}-minute deadline: ` +
    `${ret.text}; ${dup.text}; ${needed.text}.`;
  return { updates: r.updates, index, label: COORDINATED_LABEL, title };
}
