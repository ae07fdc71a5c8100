import type { WorkSummary } from './evaluate';

/**
 * "Coordination", one definition for every place that says a swarm has learnt it (`npm run
 * bench:learn`, `npm run bench:ui -- --learn`, the app's marker on the curve and its line in the
 * Work, talk and waste panel, the lesson): played on fresh evaluation tasks at the final deadline,
 * the swarm
 * - scores at least the scripted organisation's return on the same tasks minus `RETURN_MARGIN`,
 * - wastes at most `MAX_DUPLICATE_SHARE` of its useful agent-minutes on duplicate work (piling on),
 * - and at least `MIN_NEEDED_SHARE` of its deliveries (DMs and board reads) bring the receiver an
 *   interface it lacked and needed (talk that is aimed, not noise).
 */
export const RETURN_MARGIN = 0.02;
export const MAX_DUPLICATE_SHARE = 0.15;
export const MIN_NEEDED_SHARE = 0.5;

/** What the definition reads of an evaluation (a `WorkSummary` holds it). */
export type CoordinationInput = Pick<WorkSummary, 'ret' | 'useful' | 'duplicate' | 'neededShare'>;

/** The definition applied to one evaluation: each condition alone, and all three. */
export interface Coordination {
  /** ret >= scripted - RETURN_MARGIN. */
  returnMet: boolean;
  /** duplicate / useful <= MAX_DUPLICATE_SHARE. */
  splitMet: boolean;
  /** neededShare >= MIN_NEEDED_SHARE. */
  talkMet: boolean;
  /** All three. */
  met: boolean;
  /** Duplicate agent-minutes as a share of the useful ones (Infinity for duplicates without useful work, 0 for neither). */
  duplicateShare: number;
  /** The return to reach: the scripted organisation's minus RETURN_MARGIN. */
  target: number;
}

/** Duplicate work as a share of useful work: 0 when there is neither, Infinity when only duplicates. */
export function duplicateShare(s: Pick<WorkSummary, 'useful' | 'duplicate'>): number {
  if (s.duplicate <= 0) return 0;
  return s.useful > 0 ? s.duplicate / s.useful : Infinity;
}

/**
 * Applies the definition to an evaluation `s` of the swarm, against `scripted`, the scripted
 * organisation's mean return on the same tasks at the same deadline. A swarm that delivers nothing
 * (neededShare 0) has not learnt to talk where talk is needed, so it fails the talk condition.
 */
export function coordination(s: CoordinationInput, scripted: number): Coordination {
  const target = scripted - RETURN_MARGIN;
  const share = duplicateShare(s);
  const returnMet = s.ret >= target;
  const splitMet = share <= MAX_DUPLICATE_SHARE;
  const talkMet = s.neededShare >= MIN_NEEDED_SHARE;
  return { returnMet, splitMet, talkMet, met: returnMet && splitMet && talkMet, duplicateShare: share, target };
}

/** One line naming what the evaluation still misses, or that it meets all three ("coordinated"). */
export function coordinationGaps(c: Coordination): string {
  if (c.met) return 'coordinated';
  const gaps: string[] = [];
  if (!c.returnMet) gaps.push(`return under ${c.target.toFixed(3)}`);
  if (!c.splitMet) gaps.push(`duplicates over ${Math.round(MAX_DUPLICATE_SHARE * 100)}% of useful work`);
  if (!c.talkMet) gaps.push(`under ${Math.round(MIN_NEEDED_SHARE * 100)}% of deliveries needed`);
  return gaps.join(', ');
}
