import { describe, expect, it } from 'vitest';
import type { OrgSummary } from '../../src/rl/compare';
import { speedSummary } from './speed';

const row = (org: OrgSummary['org'], t90s?: (number | null)[]) => ({ org, t90s }) as OrgSummary;

describe('speedSummary', () => {
  it('compares the swarm with the organisation on the tasks both reached, per seed', () => {
    const line = speedSummary([
      { seed: 1, orgs: [row('scripted organisation', [60, 62, 64, null]), row('trained swarm', [59, 63, null, 70])] },
      { seed: 2, orgs: [row('scripted organisation', [60, 61]), row('trained swarm', [62, 63])] },
    ]);
    expect(line).toBe(
      'Minutes to 90%, task by task on the tasks both reached (trained swarm - scripted organisation; below 0: the swarm sooner):\n' +
        '  seed 1: +0.00 min, 95% interval -1.96 to +1.96 (2 of 4 tasks; only the swarm reached 1, only the organisation 1)\n' +
        '  seed 2: +2.00 min, 95% interval +2.00 to +2.00 (2 of 2 tasks; only the swarm reached 0, only the organisation 0)',
    );
  });

  it('says so when no task was reached by both, and is null for records without per-task minutes', () => {
    expect(speedSummary([{ seed: 3, orgs: [row('scripted organisation', [60]), row('trained swarm', [null])] }])).toMatch(
      /\n {2}seed 3: no task both reached \(0 of 1 tasks; only the swarm reached 0, only the organisation 1\)$/,
    );
    expect(speedSummary([{ seed: 1, orgs: [row('scripted organisation', [60]), row('trained swarm')] }])).toBeNull();
    expect(speedSummary([{ seed: 1, orgs: [row('scripted organisation', [60])] }])).toBeNull();
  });
});
