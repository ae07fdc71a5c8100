import { describe, expect, it } from 'vitest';
import type { OrgSummary } from '../../src/rl/compare';
import { pairedTimes } from '../../src/sim/pairedTimes';
import { pairedPhrase, SPEED_HEADER, speedSummary } from './speed';

const row = (org: OrgSummary['org'], t90s?: (number | null)[]) => ({ org, t90s }) as OrgSummary;

describe('speedSummary', () => {
  it('compares the swarm with the organisation on the tasks both reached, a line per seed', () => {
    const line = speedSummary([
      { seed: 1, orgs: [row('scripted organisation', [60, 62, 64, null]), row('trained swarm', [59, 63, null, 70])] },
      { seed: 2, orgs: [row('scripted organisation', [60, 61]), row('trained swarm', [62, 63])] },
    ]);
    expect(line).toBe(
      `${SPEED_HEADER}\n` +
        '  seed 1: +0.00 min, 95% interval -1.96 to +1.96, on the 2 of 4 tasks both reached (the swarm sooner on 1, later on 1, in the same minute on 0); only the swarm reached 90% on 1, only the organisation on 1\n' +
        '  seed 2: +2.00 min, 95% interval +2.00 to +2.00, on the 2 of 2 tasks both reached (the swarm sooner on 0, later on 2, in the same minute on 0); only the swarm reached 90% on 0, only the organisation on 0',
    );
  });

  it('says so when no task was reached by both, and is null for records without per-task minutes', () => {
    expect(speedSummary([{ seed: 3, orgs: [row('scripted organisation', [60]), row('trained swarm', [null])] }])).toBe(
      `${SPEED_HEADER}\n  seed 3: no task both reached; only the swarm reached 90% on 0, only the organisation on 1`,
    );
    expect(speedSummary([{ seed: 1, orgs: [row('scripted organisation', [60]), row('trained swarm')] }])).toBeNull();
    expect(speedSummary([{ seed: 1, orgs: [row('scripted organisation', [60])] }])).toBeNull();
  });

  it('leaves the interval out below two paired tasks', () => {
    expect(pairedPhrase(pairedTimes([58, null], [60, 61]))).toBe(
      '-2.00 min, on the 1 of 2 tasks both reached (the swarm sooner on 1, later on 0, in the same minute on 0); only the swarm reached 90% on 0, only the organisation on 1',
    );
  });
});
