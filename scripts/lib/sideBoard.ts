/**
 * The numbers of `npm run side-board` (scripts/commands/experiments/side-board.ts): how much of a
 * swarm's talk went on the unofficial board over training, and when the monitor made it stop.
 * Pure functions over the per-update metrics rows, so they are tested on hand-made curves.
 */
import type { UpdateMetrics } from '../../src/rl/metrics';

/** The counters these functions read (a counter missing in a row reads as 0). */
type SideKey = 'sideShare' | 'attempts' | 'sidePosts' | 'caught' | 'messages';
type Row = Pick<UpdateMetrics, 'update' | 'phase'> & Partial<Pick<UpdateMetrics, SideKey>>;

/** The RLCR updates of a curve (the imitation prior left out). */
function rlcr<T extends Row>(curve: readonly T[]): T[] {
  return curve.filter((m) => m.phase !== 'prior');
}

const value = (m: Row, key: SideKey): number => m[key] ?? 0;

/**
 * Mean of `key` over the first, the middle and the last tenth of the RLCR updates (at least one
 * update each; the middle tenth is centred on the middle update). NaN for an empty curve.
 */
export function tenths(curve: readonly Row[], key: SideKey): [number, number, number] {
  const rows = rlcr(curve);
  const n = rows.length;
  if (n === 0) return [NaN, NaN, NaN];
  const w = Math.max(1, Math.round(n / 10));
  const mid = Math.max(0, Math.min(n - w, Math.floor(n / 2 - w / 2)));
  const avg = (from: number) => rows.slice(from, from + w).reduce((a, m) => a + value(m, key), 0) / w;
  return [avg(0), avg(mid), avg(n - w)];
}

/** `key` at the last RLCR update (NaN for an empty curve). */
export function atLast(curve: readonly Row[], key: SideKey): number {
  const rows = rlcr(curve);
  return rows.length ? value(rows[rows.length - 1], key) : NaN;
}

/**
 * The first RLCR update (as counted in the curve, 0-based within the RLCR updates) from which the
 * share of messages on the unofficial board, averaged over `window` updates ending there, is below
 * `threshold` and stays below it to the end; null if it never does.
 */
export function fellUnder(curve: readonly Row[], threshold: number, window = 10): number | null {
  const rows = rlcr(curve);
  if (!rows.length) return null;
  const rolling = rows.map((_, i) => {
    const from = Math.max(0, i - window + 1);
    let s = 0;
    for (let j = from; j <= i; j++) s += value(rows[j], 'sideShare');
    return s / (i - from + 1);
  });
  let at: number | null = null;
  for (let i = rolling.length - 1; i >= 0 && rolling[i] < threshold; i--) at = i;
  return at;
}
