import type { OrgSummary } from '../../src/rl/compare';
import { pairedTimes, type PairedTimes } from '../../src/sim/pairedTimes';

/** The header of the task-by-task comparison, as `npm run experiment` and `npm run pile-audit` print it. */
export const SPEED_HEADER = 'Minutes to 90%, task by task on the tasks both reached (trained swarm - scripted organisation; below 0: the swarm sooner):';

const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;

/** One comparison (swarm as `a`, organisation as `b`) in words: the mean difference, its 95% interval, who was sooner, and the tasks only one reached. */
export function pairedPhrase(p: PairedTimes): string {
  const only = `only the swarm reached 90% on ${p.onlyA}, only the organisation on ${p.onlyB}`;
  if (p.both === 0) return `no task both reached; ${only}`;
  const interval = p.both >= 2 ? `, 95% interval ${signed(p.meanDiff - p.halfWidth)} to ${signed(p.meanDiff + p.halfWidth)}` : '';
  return `${signed(p.meanDiff)} min${interval}, on the ${p.both} of ${p.tasks} tasks both reached (the swarm sooner on ${p.aSooner}, later on ${p.bSooner}, in the same minute on ${p.same}); ${only}`;
}

/**
 * The trained swarm's minutes to 90% of the tests against the scripted organisation's, task by task
 * (src/sim/pairedTimes.ts), a line per seed. The table's "min to 90%" averages the tasks each team
 * reached on its own; this compares the same tasks. Null without both rows and their per-task
 * minutes (records written before those were kept).
 */
export function speedSummary(results: readonly { seed: number; orgs: readonly OrgSummary[] }[]): string | null {
  const parts: string[] = [];
  for (const r of results) {
    const swarm = r.orgs.find((o) => o.org === 'trained swarm')?.t90s;
    const org = r.orgs.find((o) => o.org === 'scripted organisation')?.t90s;
    if (!swarm || !org || swarm.length !== org.length) return null;
    parts.push(`  seed ${r.seed}: ${pairedPhrase(pairedTimes(swarm, org))}`);
  }
  return parts.length ? [SPEED_HEADER, ...parts].join('\n') : null;
}
