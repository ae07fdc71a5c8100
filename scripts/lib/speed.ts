import type { OrgSummary } from '../../src/rl/compare';
import { pairedTimes } from '../../src/sim/pairedTimes';

const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;

/**
 * The trained swarm's minutes to 90% of the tests against the scripted organisation's, task by task
 * (src/sim/pairedTimes.ts), per seed: the mean difference on the tasks both reached with its 95%
 * interval, and the tasks only one of them reached. The table's "min to 90%" averages the tasks each
 * team reached on its own; this compares the same tasks. Null without both rows and their per-task
 * minutes (records written before those were kept).
 */
export function speedSummary(results: readonly { seed: number; orgs: readonly OrgSummary[] }[]): string | null {
  const parts: string[] = [];
  for (const r of results) {
    const swarm = r.orgs.find((o) => o.org === 'trained swarm')?.t90s;
    const org = r.orgs.find((o) => o.org === 'scripted organisation')?.t90s;
    if (!swarm || !org || swarm.length !== org.length) return null;
    const p = pairedTimes(swarm, org);
    const interval = p.both >= 2 ? `, 95% interval ${signed(p.meanDiff - p.halfWidth)} to ${signed(p.meanDiff + p.halfWidth)}` : '';
    parts.push(
      `seed ${r.seed}: ${p.both > 0 ? `${signed(p.meanDiff)} min${interval}` : 'no task both reached'} (${p.both} of ${p.tasks} tasks; only the swarm reached ${p.onlyA}, only the organisation ${p.onlyB})`,
    );
  }
  if (!parts.length) return null;
  return [
    'Minutes to 90%, task by task on the tasks both reached (trained swarm - scripted organisation; below 0: the swarm sooner):',
    ...parts.map((p) => `  ${p}`),
  ].join('\n');
}
