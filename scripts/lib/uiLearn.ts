/**
 * The pure part of `npm run bench:ui -- --learn`: reading the page's readouts back into numbers (the
 * time left as the page words it, what-talk-is-worth's talking return) and turning what the page
 * showed over time into the figures the benchmark reports (time to the target, the time-left error).
 */

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
