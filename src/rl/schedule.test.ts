import { describe, expect, it } from 'vitest';
import { tmaxAt, type DeadlineSchedule } from './schedule';

const base: DeadlineSchedule = { start: 8, end: 24, shape: 'linear', warmup: 100, steps: 4 };

describe('tmaxAt', () => {
  it('holds the start during warm-up and reaches the end at the last update (linear)', () => {
    expect(tmaxAt(base, 0, 1101)).toBe(8);
    expect(tmaxAt(base, 100, 1101)).toBe(8);
    expect(tmaxAt(base, 600, 1101)).toBe(16);
    expect(tmaxAt(base, 1100, 1101)).toBe(24);
    expect(tmaxAt(base, 5000, 1101)).toBe(24);
  });

  it('grows geometrically for the exponential shape', () => {
    const s = { ...base, start: 6, end: 24, warmup: 0 };
    expect(tmaxAt({ ...s, shape: 'exponential' }, 50, 101)).toBe(12); // sqrt(6 * 24)
    expect(tmaxAt({ ...s, shape: 'exponential' }, 100, 101)).toBe(24);
  });

  it('climbs in equal stairs for the step shape', () => {
    const s: DeadlineSchedule = { ...base, warmup: 0, shape: 'step', steps: 4 };
    expect([0, 24, 25, 49, 50, 75, 100].map((u) => tmaxAt(s, u, 101))).toEqual([8, 8, 12, 12, 16, 20, 24]);
  });

  it('stays fixed when start equals end', () => {
    expect(tmaxAt({ ...base, start: 20, end: 20 }, 700, 1000)).toBe(20);
  });
});
