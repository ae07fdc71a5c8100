/**
 * Names for recorded runs that say what sets a run apart (task family, structure, ablations, a
 * deadline schedule other than the family's own) and when it started, so runs in the library can
 * be told apart at a glance.
 */
import { defaultConfig, type Config } from '../rl/config';
import { calibratedSchedule } from '../sim/task';

/** The ablations a config switches on, in plain words (empty for plain RLCR). */
export function ablationLabels(c: Config): string[] {
  const out: string[] = [];
  if (c.latencyPenalty > 0) out.push(`latency penalty ${c.latencyPenalty}`);
  if (c.tmaxStart === c.tmaxEnd) out.push(`fixed Tmax ${c.tmaxEnd}`);
  if (c.critic) out.push(`critic + GAE (γ ${c.gamma}, λ ${c.lambda})`);
  if (c.rewards === 'individual') out.push('individual rewards');
  if (c.advantage !== defaultConfig().advantage) out.push(c.advantage);
  return out;
}

/** What sets the run's settings apart: family and agents, then structure, ablations, schedule and prior where not the default. */
export function describeRun(c: Config): string {
  const parts = [`${c.family}, ${c.agents} agents`];
  if (c.structure !== 'flat') parts.push(c.structure);
  parts.push(...ablationLabels(c));
  const cal = calibratedSchedule(c.family);
  if (c.tmaxStart !== c.tmaxEnd && (c.tmaxStart !== cal.start || c.tmaxEnd !== cal.end)) parts.push(`deadline ${c.tmaxStart} → ${c.tmaxEnd}`);
  if (c.prior > 0) parts.push(`prior ${c.prior}`);
  return parts.join(', ');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A run's default name: what sets it apart and when it started (local time), e.g. "coupled, 8 agents, ceo · 30 Nov 14:05". */
export function runName(c: Config, created: Date): string {
  const hh = String(created.getHours()).padStart(2, '0');
  const mm = String(created.getMinutes()).padStart(2, '0');
  return `${describeRun(c)} · ${created.getDate()} ${MONTHS[created.getMonth()]} ${hh}:${mm}`;
}
