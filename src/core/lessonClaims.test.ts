import { describe, expect, it } from 'vitest';
import { LESSON_CONTENT } from './lesson';
import { describeMeasure, holds, judgeClaim, overtakesAt, windowStat, windowUpdates, type LessonClaim } from './lessonClaims';

const evalRet = { of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 } as const;

describe('judging a lesson claim', () => {
  it('above / below need the margin, about the tolerance; NaN never passes, Infinity is a "never"', () => {
    expect(holds({ is: 'above' }, 0.9, 0.8)).toBe(true);
    expect(holds({ is: 'above' }, 0.8, 0.8)).toBe(false);
    expect(holds({ is: 'above', by: 0.1 }, 0.89, 0.8)).toBe(false);
    expect(holds({ is: 'above', by: 0.1 }, 0.91, 0.8)).toBe(true);
    // A negative margin: "not much lower than".
    expect(holds({ is: 'above', by: -0.1 }, 0.75, 0.8)).toBe(true);
    expect(holds({ is: 'above', by: -0.1 }, 0.69, 0.8)).toBe(false);
    expect(holds({ is: 'below', by: 0.05 }, 0.7, 0.8)).toBe(true);
    expect(holds({ is: 'below', by: 0.05 }, 0.76, 0.8)).toBe(false);
    expect(holds({ is: 'about', by: 0.05 }, 0.84, 0.8)).toBe(true);
    expect(holds({ is: 'about', by: 0.05 }, 0.86, 0.8)).toBe(false);
    expect(holds({ is: 'about', by: 0.05 }, Infinity, 0.8)).toBe(false);
    expect(holds({ is: 'below' }, NaN, 1)).toBe(false);
    expect(holds({ is: 'above' }, 1, NaN)).toBe(false);
    // "The swarm overtakes before update 100": never is not before.
    expect(holds({ is: 'below' }, Infinity, 100)).toBe(false);
    expect(() => holds({ is: 'about' }, 1, 1)).toThrow(/tolerance/);
  });

  it('a claim holds only if it holds on every seed, and fails with no reading at all', () => {
    const claim: LessonClaim = { says: 'muting costs much', measure: evalRet, is: 'above', than: 0.5, by: 0.1 };
    const good = judgeClaim(claim, [
      { seed: 101, value: 0.9, than: 0.5 },
      { seed: 102, value: 0.7, than: 0.5 },
    ]);
    expect(good.pass).toBe(true);
    expect(good.seeds.map((s) => s.pass)).toEqual([true, true]);
    const one = judgeClaim(claim, [
      { seed: 101, value: 0.9, than: 0.5 },
      { seed: 102, value: 0.55, than: 0.5 },
      { seed: 103, value: 0.9, than: 0.5 },
    ]);
    expect(one.pass).toBe(false);
    expect(one.seeds.map((s) => s.pass)).toEqual([true, false, true]);
    expect(judgeClaim(claim, []).pass).toBe(false);
  });
});

describe('the windows and series a claim reads', () => {
  it('counts a window from the start, the end of the imitation prior or the end, clipped to the run', () => {
    expect(windowUpdates({ anchor: 'start', updates: [1, 30] }, 300, 0)).toEqual([1, 30]);
    expect(windowUpdates({ anchor: 'end', updates: [-29, 0] }, 300, 0)).toEqual([271, 300]);
    expect(windowUpdates({ anchor: 'prior', updates: [1, 10] }, 400, 100)).toEqual([101, 110]);
    expect(windowUpdates({ anchor: 'prior', updates: [-9, 0] }, 400, 100)).toEqual([91, 100]);
    expect(windowUpdates({ anchor: 'start', updates: [1, 30] }, 4, 0)).toEqual([1, 4]);
  });

  it('averages a window, or gives its spread; an empty window is NaN', () => {
    const xs = [1, 2, 3, 4, 5];
    expect(windowStat(xs, 2, 4)).toBe(3);
    expect(windowStat(xs, 1, 5, true)).toBeCloseTo(Math.sqrt(2.5), 12);
    expect(windowStat(xs, 3, 3, true)).toBe(0);
    expect(windowStat(xs, 6, 9)).toBeNaN();
  });

  it('finds the update from which the smoothed swarm stays above a line, or never', () => {
    const line = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5];
    expect(overtakesAt([0.1, 0.2, 0.6, 0.7, 0.8, 0.9], line, 1)).toBe(3);
    // Smoothed over 2: update 3's mean (0.2, 0.6) is 0.4, below; update 4's is 0.65.
    expect(overtakesAt([0.1, 0.2, 0.6, 0.7, 0.8, 0.9], line, 2)).toBe(4);
    // Above, then below again, then above: the last crossing counts.
    expect(overtakesAt([0.6, 0.6, 0.1, 0.6, 0.6, 0.6], line, 1)).toBe(4);
    expect(overtakesAt([0.6, 0.6, 0.6, 0.6, 0.6, 0.4], line, 1)).toBe(Infinity);
  });
});

describe("the lesson's declared claims", () => {
  const claims = LESSON_CONTENT.flatMap((step) => step.claims.map((c) => ({ step, c })));
  const measures = claims.flatMap(({ step, c }) => [c.measure, c.than].flatMap((m) => (typeof m === 'number' ? [] : [{ step, says: c.says, m }])));

  it('every step declares claims, every "about" has a tolerance, and every measure can be described', () => {
    for (const step of LESSON_CONTENT) expect(step.claims.length, step.title).toBeGreaterThan(0);
    const abouts = claims.filter(({ c }) => c.is === 'about');
    expect(abouts.length).toBeGreaterThan(0);
    for (const { c } of abouts) expect(c.by ?? 0, c.says).toBeGreaterThan(0);
    for (const { m } of measures) expect(describeMeasure(m)).toMatch(/\w/);
  });

  it('a one-update step claims nothing beyond its one update', () => {
    const oneUpdate = measures.filter(({ step }) => step.setup.kind === 'live' && step.setup.run === 'step');
    expect(oneUpdate.length).toBeGreaterThan(0);
    for (const { says, m } of oneUpdate) expect(m.of === 'training' ? m.window : m.of, says).toEqual({ anchor: 'start', updates: [1, 1] });
  });
});
