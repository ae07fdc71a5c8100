/**
 * The pure part of `npm run bench:ui -- --learn`: reading the page's readouts back into numbers (the
 * time left as the page words it, what-talk-is-worth's talking return) and turning what the page
 * showed over time into the figures the benchmark reports (time to coordination, the time-left error).
 */
import { MAX_DUPLICATE_SHARE, MIN_NEEDED_SHARE, RETURN_MARGIN } from '../../src/sim/coordination';

/** Seconds from the page's time-left words ("45 s", "3 min 05 s", "1 h 02 min", "done"); null for anything else ("…", "–"). */
export function parseDuration(text: string): number | null {
  const t = text.trim();
  if (t === 'done') return 0;
  let m = /^(\d+) s$/.exec(t);
  if (m) return Number(m[1]);
  m = /^(\d+) min (\d+) s$/.exec(t);
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  m = /^(\d+) h (\d+) min$/.exec(t);
  if (m) return Number(m[1]) * 3600 + Number(m[2]) * 60;
  return null;
}

/** The page's final-deadline evaluation of the swarm as trained so far: its talking return after `updates` updates. */
export interface PageEvaluation {
  updates: number;
  ret: number;
}

/**
 * Reads the talking return and its update from the *What talk is worth* sentence ("... (0.77
 * talking vs 0.65 muted, update 150)", "... (0.41 of the tests, before training)"); null when it
 * holds none (not measured yet). Two decimals, as printed.
 */
export function parseTalkSentence(text: string): PageEvaluation | null {
  const m = /\((\d+(?:\.\d+)?) (?:talking vs \d+(?:\.\d+)? muted|of the tests), (?:update (\d+)|before training)\)/.exec(text);
  if (!m) return null;
  return { ret: Number(m[1]), updates: m[2] === undefined ? 0 : Number(m[2]) };
}

/** One reading of the page's time left: at `t` seconds of training it said `seconds` (null: no number, e.g. "…"). */
export interface TimeLeftReading {
  t: number;
  text: string;
  seconds: number | null;
}

/** The time left the page showed at one moment of a run, against the time the run really had left. */
export interface TimeLeftError {
  /** Seconds of training asked for. */
  at: number;
  /** Seconds of training of the reading used (the last one at or before `at`); null when there was none. */
  readAt: number | null;
  text: string | null;
  shown: number | null;
  /** Seconds the run really had left from `readAt`. */
  actual: number | null;
  /** (shown - actual) / actual; null without both. */
  error: number | null;
}

/**
 * The error of the time left at each of `at` (seconds of training) for a run that ended at `end`
 * seconds of training: what the readout said then (its last change at or before the moment: it is
 * redrawn every second) against the time really left then.
 */
export function timeLeftErrors(readings: readonly TimeLeftReading[], end: number, at: readonly number[]): TimeLeftError[] {
  return at.map((a) => {
    let r: TimeLeftReading | undefined;
    for (const x of readings) if (x.t <= a) r = x;
    if (!r || a >= end) return { at: a, readAt: r?.t ?? null, text: r?.text ?? null, shown: r?.seconds ?? null, actual: null, error: null };
    const actual = end - a;
    const shown = r.seconds;
    return { at: a, readAt: r.t, text: r.text, shown, actual, error: shown === null ? null : (shown - actual) / actual };
  });
}

/** When the run first showed `count` updates: seconds of training, from (t, count) changes of the update readout. */
export function secondsAtUpdate(timeline: readonly { t: number; count: number }[], count: number): number | null {
  for (const x of timeline) if (x.count >= count) return x.t;
  return null;
}

// ---------------------------------------------------------------- coordination as the page shows it

/** The definition of coordination the page applies (src/sim/coordination.ts), as the report states it. */
export const COORDINATION = { returnMargin: RETURN_MARGIN, maxDuplicateShare: MAX_DUPLICATE_SHARE, minNeededShare: MIN_NEEDED_SHARE };

/** The definition in one line, from its constants, at final deadline `tmax` (minutes). */
export function coordinationDefinition(tmax: number): string {
  return (
    `on the page's fresh evaluation tasks at the final deadline (${tmax} min), a return of at least the scripted organisation's on the same tasks - ${RETURN_MARGIN}, ` +
    `duplicate work at most ${Math.round(MAX_DUPLICATE_SHARE * 100)}% of useful work, at least ${Math.round(MIN_NEEDED_SHARE * 100)}% of deliveries needed`
  );
}

/**
 * What the probe notes of the Work, talk and waste panel's coordination line (and the curve's
 * marker) at one moment, as the page holds it: its data attributes as strings (null when absent),
 * its headline, and each condition's verdict and figure as shown.
 */
export interface CoordinationReading {
  /** Page time (ms from navigation). */
  t: number;
  updates: string | null;
  coordinatedUpdate: string | null;
  met: string | null;
  ret: string | null;
  target: string | null;
  duplicateShare: string | null;
  neededShare: string | null;
  headline: string;
  /** The conditions: key (return, duplicates, needed), data-met, the figure as shown (data-shown). */
  rows: { key: string; met: string | null; shown: string | null }[];
  /** The curve's coordination marker's data-updates (null: no marker). */
  marker: string | null;
}

/** The page's coordination line for one evaluation, read back into numbers. */
export interface PageCoordination {
  /** Updates done at the evaluation on screen. */
  updates: number;
  /** All three conditions met (null: the evaluation cannot tell). */
  met: boolean | null;
  ret: number | null;
  target: number | null;
  /** Duplicate agent-minutes over useful ones (Infinity: duplicates without useful work). */
  duplicateShare: number | null;
  neededShare: number | null;
  /** Each condition's figure as the page showed it ("0.934", "22%", "62%") and whether it was met. */
  shown: Record<string, { text: string; met: boolean } | undefined>;
  /** The first coordinated update the line named (null: none yet). */
  coordinatedUpdate: number | null;
  /** The update the curve's marker stood at (null: no marker). */
  markerUpdate: number | null;
  headline: string;
}

const num = (s: string | null): number | null => (s === null || s.trim() === '' || Number.isNaN(Number(s)) ? null : Number(s));

/** A reading as numbers; null when the line showed no evaluation (no data-updates). */
export function readCoordination(r: CoordinationReading): PageCoordination | null {
  const updates = num(r.updates);
  if (updates === null) return null;
  const shown: PageCoordination['shown'] = {};
  for (const row of r.rows) if (row.shown !== null) shown[row.key] = { text: row.shown, met: row.met === 'true' };
  return {
    updates,
    met: r.met === null ? null : r.met === 'true',
    ret: num(r.ret),
    target: num(r.target),
    duplicateShare: num(r.duplicateShare),
    neededShare: num(r.neededShare),
    shown,
    coordinatedUpdate: num(r.coordinatedUpdate),
    markerUpdate: num(r.marker),
    headline: r.headline,
  };
}

/**
 * The page's coordination line for each evaluation (by its update), the last reading of each: the
 * line is redrawn with the evaluation, so the last reading at an update is what stayed on screen.
 */
export function coordinationByUpdate(readings: readonly CoordinationReading[]): Map<number, PageCoordination> {
  const out = new Map<number, PageCoordination>();
  for (const r of readings) {
    const c = readCoordination(r);
    if (c) out.set(c.updates, c);
  }
  return out;
}

/**
 * When the page first showed that the run coordinates: the first reading whose line named a
 * coordinated update or whose curve carried the marker. `t` is page time; null when it never did.
 */
export function firstShownCoordination(readings: readonly CoordinationReading[]): { t: number; updates: number; by: 'line' | 'marker' } | null {
  for (const r of readings) {
    const line = num(r.coordinatedUpdate);
    if (line !== null) return { t: r.t, updates: line, by: 'line' };
    const marker = num(r.marker);
    if (marker !== null) return { t: r.t, updates: marker, by: 'marker' };
  }
  return null;
}

/** One evaluation as the report prints it, with each condition's figure as the page showed it and whether it was met. */
export function evaluationLine(e: { updates: number; ret: number; coordination: PageCoordination | null }): string {
  const head = `update ${String(e.updates).padStart(5)}:`;
  const c = e.coordination;
  if (!c || c.met === null) return `${head} return ${e.ret.toFixed(3)}; the page could not tell coordination${c ? ` ("${c.headline}")` : ''}`;
  const part = (key: string, name: string, after = '') => {
    const s = c.shown[key];
    return s ? `${name} ${s.text}${after} ${s.met ? 'met' : 'NOT met'}` : `${name} –`;
  };
  const target = c.target === null ? '' : ` (target ${c.target.toFixed(3)})`;
  const parts = [part('return', 'return', target), part('duplicates', 'duplicates'), part('needed', 'needed')];
  return `${head} ${parts.join(', ')}${c.met ? '  <- coordinated' : ''}`;
}
