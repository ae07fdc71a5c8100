import type { Config } from '../rl/config';
import type { UpdateMetrics } from '../rl/metrics';
import { CHANNEL_TEXT, channelPolicyOf, type ChannelPolicy } from '../sim/channels';

/** The counters of unsanctioned traffic in an update's metrics (sim/evaluate WorkSummary); absent in runs recorded before the channels. */
export type UnsanctionedKey = 'sidePosts' | 'sideShare' | 'caught' | 'attempts';
export const UNSANCTIONED_KEYS: readonly UnsanctionedKey[] = ['sidePosts', 'sideShare', 'caught', 'attempts'];

/** The rules of a run that make traffic unsanctioned (a file recorded before them reads as open, no side board). */
export type ChannelRules = Partial<Pick<Config, 'channels' | 'sideBoard' | 'structure'>>;

/** The channel policy a run plays under (sim/channels `channelPolicyOf`): open where the settings are missing. */
export function policyOf(c: ChannelRules): ChannelPolicy {
  return channelPolicyOf(c.channels ?? 'open', c.structure ?? 'flat');
}

/** Which of the counters a run's panel shows: the ones its rules can make, and any that is not 0 in its updates. */
export function unsanctionedShown(c: ChannelRules, metrics: readonly Partial<Pick<UpdateMetrics, UnsanctionedKey>>[]): Record<UnsanctionedKey, boolean> {
  const any = (k: UnsanctionedKey) => metrics.some((m) => (m[k] ?? 0) > 0);
  const side = (c.sideBoard ?? 'off') !== 'off' || any('sidePosts');
  return {
    sidePosts: side,
    sideShare: side,
    caught: c.sideBoard === 'monitored' || any('caught'),
    attempts: policyOf(c) !== 'open' || any('attempts'),
  };
}

const one = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');

/**
 * One update's unsanctioned traffic in words, per episode: "Update 12, per episode: 3.5 posts on
 * the unofficial board (12% of messages), 1.0 caught; 2.0 messages blocked by the channel policy
 * (hub: ...)". Only the parts `shown` names; null when it names none.
 */
export function unsanctionedLine(
  m: Partial<Pick<UpdateMetrics, UnsanctionedKey>> & Pick<UpdateMetrics, 'update'>,
  c: ChannelRules,
  shown: Record<UnsanctionedKey, boolean>,
): string | null {
  const parts: string[] = [];
  if (shown.sidePosts) {
    let side = `${one(m.sidePosts ?? 0)} posts on the unofficial board (${Math.round((m.sideShare ?? 0) * 100)}% of messages)`;
    if (shown.caught) side += `, ${one(m.caught ?? 0)} caught`;
    parts.push(side);
  } else if (shown.caught) {
    parts.push(`${one(m.caught ?? 0)} posts caught`);
  }
  if (shown.attempts) {
    const p = policyOf(c);
    parts.push(`${one(m.attempts ?? 0)} messages blocked by the channel policy (${p}: ${CHANNEL_TEXT[p]})`);
  }
  if (!parts.length) return null;
  return `Update ${m.update + 1}, per episode: ${parts.join('; ')}.`;
}
