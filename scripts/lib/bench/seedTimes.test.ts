import { describe, expect, it } from 'vitest';
import { describeSeedTimes, formatSeedTimes, summariseSeedTimes } from './seedTimes';

describe('time to coordination over seeds', () => {
  it('takes the median of the seeds that all coordinated', () => {
    const s = summariseSeedTimes([
      { seed: 1, seconds: 70.2 },
      { seed: 2, seconds: 51 },
      { seed: 3, seconds: 74.1 },
    ]);
    expect(s).toEqual({ coordinated: 3, seeds: 3, medianSeconds: 70.2 });
  });

  it('counts a seed that never coordinated as slower than any that did', () => {
    const s = summariseSeedTimes([
      { seed: 1, seconds: 47.1 },
      { seed: 2, seconds: null },
      { seed: 3, seconds: 53.1 },
    ]);
    expect(s).toEqual({ coordinated: 2, seeds: 3, medianSeconds: 53.1 });
    expect(describeSeedTimes(s)).toBe('coordinated in 2 of 3 seeds; median over the seeds 53.1 s of training');
  });

  it('has no median time when more than half never coordinated', () => {
    const s = summariseSeedTimes([
      { seed: 1, seconds: 60 },
      { seed: 2, seconds: null },
      { seed: 3, seconds: null },
    ]);
    expect(s).toEqual({ coordinated: 1, seeds: 3, medianSeconds: null });
    expect(describeSeedTimes(s)).toContain('never');
  });

  it('needs both middle seeds of an even count to have coordinated', () => {
    expect(
      summariseSeedTimes([
        { seed: 1, seconds: 40 },
        { seed: 2, seconds: null },
      ]).medianSeconds,
    ).toBeNull();
    expect(
      summariseSeedTimes([
        { seed: 1, seconds: 40 },
        { seed: 2, seconds: 50 },
        { seed: 3, seconds: 60 },
        { seed: 4, seconds: null },
      ]).medianSeconds,
    ).toBe(55);
  });

  it('tables each seed: its time or how long it trained without coordinating, the update, the best return', () => {
    const table = formatSeedTimes([
      { seed: 1, seconds: 70.04, updates: 420, trainedSeconds: 70.04, best: 0.9351 },
      { seed: 2, seconds: null, updates: null, trainedSeconds: 300, best: 0.9214 },
      { seed: 3, seconds: null, updates: null, trainedSeconds: 12.5, best: null },
    ]);
    const lines = table.split('\n').filter((l) => /^\s*\d/.test(l));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\s*1\s+70\.0 s\s+420\s+0\.935\s*$/);
    expect(lines[1]).toMatch(/^\s*2\s+never \(300\.0 s\)\s+-\s+0\.921\s*$/);
    expect(lines[2]).toMatch(/^\s*3\s+never \(12\.5 s\)\s+-\s+-\s*$/);
  });
});
