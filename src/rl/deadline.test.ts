import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from './config';
import { deadlineAt, rlcrDeadlines } from './deadline';
import { Trainer } from './trainer';

const base: Config = { ...defaultConfig(), agents: 2, tasksPerUpdate: 1, groupSize: 2, hidden: 8, scorer: 4, family: 'coupled' };

describe('deadlineAt', () => {
  it('sweeps the deadlines from start to end while imitating, then follows the schedule from its start', () => {
    const c = { ...base, prior: 3, updates: 11, tmaxStart: 10, tmaxEnd: 20, tmaxShape: 'linear' as const, tmaxWarmup: 0 };
    expect([0, 1, 2].map((u) => deadlineAt(c, u))).toEqual([10, 15, 20]);
    // the prior's sweep is linear and starts at once, whatever the RLCR schedule's shape and warm-up
    expect([0, 1, 2].map((u) => deadlineAt({ ...c, tmaxShape: 'exponential', tmaxWarmup: 5 }, u))).toEqual([10, 15, 20]);
    expect([0, 1, 2].map((u) => deadlineAt({ ...c, tmaxStart: 20 }, u))).toEqual([20, 20, 20]);
    expect(deadlineAt(c, 3)).toBe(10);
    expect(deadlineAt(c, 8)).toBe(15);
    expect(deadlineAt(c, 13)).toBe(20);
    expect(deadlineAt(c, 500)).toBe(20);
  });

  it('is the deadline the trainer plays at every update, prior offset included', async () => {
    for (const over of [
      { prior: 0, tmaxShape: 'linear' as const },
      { prior: 4, tmaxShape: 'exponential' as const, tmaxWarmup: 2 },
      { prior: 2, tmaxShape: 'step' as const, tmaxSteps: 3 },
    ]) {
      const c = { ...base, updates: 8, tmaxStart: 6, tmaxEnd: 20, epochs: 1, ...over };
      const t = new Trainer(c);
      try {
        for (let u = 0; u < c.prior + c.updates; u++) expect((await t.step()).metrics.tmax, `update ${u} of ${JSON.stringify(over)}`).toBe(deadlineAt(c, u));
      } finally {
        t.dispose();
      }
    }
  });
});

describe('rlcrDeadlines', () => {
  it('numbers RLCR updates from 0, skips imitation, and ends at the last update', () => {
    const c = { ...base, prior: 5, updates: 4, tmaxStart: 8, tmaxEnd: 24, tmaxShape: 'linear' as const, tmaxWarmup: 0 };
    expect(rlcrDeadlines(c)).toEqual([
      [0, 8],
      [1, 13],
      [2, 19],
      [3, 24],
    ]);
    const long = rlcrDeadlines({ ...c, updates: 1001 }, 100);
    expect(long.length).toBeLessThanOrEqual(102);
    expect(long.at(-1)).toEqual([1000, 24]);
  });
});
