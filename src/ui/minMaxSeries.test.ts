import { describe, expect, it } from 'vitest';
import { goldenJson } from './golden';
import { MinMaxSeries, type Point } from './minMaxSeries';

/** The straightforward computation: the lowest and highest point (the earlier on a tie) of each group of `size` consecutive points. */
function groupLowsAndHighs(points: readonly Point[], size: number): Point[][] {
  const out: Point[][] = [];
  for (let i = 0; i < points.length; i += size) {
    let lo = points[i];
    let hi = points[i];
    for (const p of points.slice(i + 1, i + size)) {
      if (p[1] < lo[1]) lo = p;
      if (p[1] > hi[1]) hi = p;
    }
    out.push(lo === hi ? [lo] : lo[0] < hi[0] ? [lo, hi] : [hi, lo]);
  }
  return out;
}

/** A wiggly series with repeated values (ties) and a few spikes. */
const wiggle = (n: number): Point[] => Array.from({ length: n }, (_, i) => [i, i % 97 === 41 ? 9 : i % 89 === 7 ? -9 : Math.round(Math.sin(i / 7) * 4) / 4]);

const fill = (points: readonly Point[], maxGroups: number) => {
  const s = new MinMaxSeries(maxGroups);
  for (const [x, y] of points) s.push(x, y);
  return s;
};

describe('MinMaxSeries', () => {
  it('keeps the same groups as grouping the whole series at once, at every length', () => {
    const all = wiggle(1_300);
    const s = new MinMaxSeries(40);
    for (let n = 1; n <= all.length; n++) {
      s.push(...all[n - 1]);
      expect(s.groups).toBeLessThanOrEqual(40);
      if (n % 37 !== 0 && n !== all.length) continue;
      const expected = groupLowsAndHighs(all.slice(0, n), s.size);
      expect(Array.from({ length: s.groups }, (_, g) => s.groupPoints(g))).toEqual(expected);
    }
    // 1,300 points in at most 40 groups: groups of 64.
    expect(s.size).toBe(64);
  });

  it('draws every point of a short series, and first, lows, highs and last of a long one, in order', () => {
    const short = wiggle(30);
    expect(fill(short, 40).points()).toEqual(short);
    const long = wiggle(10_000);
    const s = fill(long, 100);
    const pts = s.points();
    expect(pts.length).toBeLessThanOrEqual(2 * 100 + 2);
    expect(pts[0]).toEqual(long[0]);
    expect(pts.at(-1)).toEqual(long.at(-1));
    for (let i = 1; i < pts.length; i++) expect(pts[i][0]).toBeGreaterThan(pts[i - 1][0]);
  });

  it('keeps a lone spike and a lone dip', () => {
    const flat: Point[] = Array.from({ length: 5_000 }, (_, i) => [i, i === 437 ? 5 : i === 3_801 ? -5 : 0]);
    const pts = fill(flat, 20).points();
    expect(pts.length).toBeLessThanOrEqual(2 * 20 + 2);
    expect(pts).toContainEqual([437, 5]);
    expect(pts).toContainEqual([3_801, -5]);
  });

  it('keeps the lowest, highest, first and last values', () => {
    const s = new MinMaxSeries(4);
    expect([s.min, s.max, s.first, s.last]).toEqual([Infinity, -Infinity, null, null]);
    const pts = wiggle(500);
    for (const [x, y] of pts) s.push(x, y);
    expect([s.min, s.max]).toEqual([Math.min(...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[1]))]);
    expect([s.first, s.last, s.count]).toEqual([pts[0], pts[499], 500]);
  });

  it('draws consecutive ranges of groups that join up into the whole line', () => {
    const s = fill(wiggle(2_345), 64);
    expect(s.groups).toBe(37);
    const whole = s.points();
    const parts = [s.points(0, 12), s.points(12, 30), s.points(30)];
    // Each range starts where the one before ended.
    expect(parts[1][0]).toEqual(parts[0].at(-1));
    expect(parts[2][0]).toEqual(parts[1].at(-1));
    expect([...parts[0], ...parts[1].slice(1), ...parts[2].slice(1)]).toEqual(whole);
  });

  it('refuses a series without groups', () => {
    expect(() => new MinMaxSeries(0)).toThrow(/at least one group/);
  });
});

describe('MinMaxSeries, values that are not numbers', () => {
  it("keeps a group's numbers when a NaN came first, in a group and across a merge, and leaves NaN out of min and max", () => {
    const s = new MinMaxSeries(2);
    s.push(0, 1);
    s.push(1, 1);
    s.push(2, NaN); // three groups of one: merged into groups of two, the second holding only the NaN
    expect(s.size).toBe(2);
    s.push(3, 0.5); // into the second group, whose NaN gives way
    expect(s.groupPoints(1)).toEqual([[3, 0.5]]);
    const m = new MinMaxSeries(1);
    m.push(0, NaN);
    m.push(1, 0.5); // two groups of one merged: the number wins over the NaN
    expect(m.groupPoints(0)).toEqual([[1, 0.5]]);
    expect([m.min, m.max]).toEqual([0.5, 0.5]);
  });
});

/**
 * Golden file: the points a curve draws for a fixed 200-update series (a rising, noisy return with a
 * spike and a dip) kept in at most 8 groups, and the two halves drawn as consecutive ranges. After an
 * intended change, `npx vitest run src/ui/minMaxSeries.test.ts -u` rewrites it.
 */
describe('MinMaxSeries, golden', () => {
  it('draws the points it drew', async () => {
    const s = new MinMaxSeries(8);
    for (let u = 0; u < 200; u++) {
      const noise = (((u * 7919) % 101) / 101 - 0.5) * 0.1;
      s.push(u, u === 77 ? 0.95 : u === 140 ? 0.05 : 0.2 + 0.5 * (u / 199) + noise);
    }
    const half = Math.floor(s.groups / 2);
    const drawn = { size: s.size, groups: s.groups, min: s.min, max: s.max, points: s.points(), firstHalf: s.points(0, half), secondHalf: s.points(half) };
    await expect(goldenJson(drawn, 4)).toMatchFileSnapshot('./__golden__/minMaxSeries.json');
  });
});
