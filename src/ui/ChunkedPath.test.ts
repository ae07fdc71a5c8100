import { describe, expect, it } from 'vitest';
import { stretchPaths, stretchSize } from './ChunkedPath';

const line = (n: number): [number, number][] => Array.from({ length: n }, (_, i) => [i, Math.sin(i / 7) + (i % 13) / 13]);
const id = (v: number) => v;

describe('a long line in stretches', () => {
  it('keeps the number of path elements bounded however long the run grows', () => {
    for (const n of [1, 2, 51, 1_000, 10_000, 100_000]) expect(stretchPaths(line(n), id, id).length).toBeLessThanOrEqual(33);
    expect(stretchSize(1_000)).toBe(50);
    expect(stretchSize(100_000)).toBeGreaterThan(50);
  });

  it('leaves finished stretches as they were while points are appended', () => {
    const before = stretchPaths(line(1_000), id, id);
    const after = stretchPaths(line(1_037), id, id);
    expect(after.slice(0, before.length - 1)).toEqual(before.slice(0, -1));
    expect(after.length).toBeGreaterThan(before.length - 1);
  });

  it('draws every point of a short run, and each stretch of a long one with a bounded number of points', () => {
    const short = stretchPaths(line(40), id, id).join('');
    expect(short.split(/[ML]/).filter(Boolean)).toHaveLength(40);
    const long = stretchPaths(line(100_000), id, id);
    for (const d of long) expect(d.split(/[ML]/).filter(Boolean).length).toBeLessThanOrEqual(2 * 60 + 2);
    // The line still runs from the first update to the last.
    expect(long[0].startsWith('M0,')).toBe(true);
    expect(long.at(-1)!).toContain('L99999,');
  });
});
