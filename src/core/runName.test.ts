import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../rl/config';
import { describeRun, runName } from './runName';

describe('run names', () => {
  it('say only what differs from the defaults, beside the family', () => {
    expect(describeRun(defaultConfig())).toBe('long-planned, 8 agents');
    expect(describeRun({ ...defaultConfig(), structure: 'ceo', rewards: 'individual', tmaxStart: 30 })).toBe(
      'long-planned, 8 agents, ceo, individual rewards, deadline 30 → 72',
    );
    expect(describeRun({ ...defaultConfig(), family: 'coupled', tmaxStart: 24, tmaxEnd: 24, prior: 100 })).toBe('coupled, 8 agents, fixed Tmax 24, prior 100');
  });

  it('tell two runs of the same settings apart by when they started', () => {
    const c = defaultConfig();
    expect(runName(c, new Date(2026, 10, 30, 9, 5))).toBe('long-planned, 8 agents · 30 Nov 09:05');
    expect(runName(c, new Date(2026, 10, 30, 9, 5))).not.toBe(runName(c, new Date(2026, 10, 30, 9, 6)));
  });
});
