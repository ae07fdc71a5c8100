import { describe, expect, it } from 'vitest';
import { chunkedLine, StretchPaths, stretchPoints } from './ChunkedPath';
import { seriesPath } from './geometry';
import type { MinMaxSeries } from './minMaxSeries';

const value = (i: number) => Math.sin(i / 7) + (i % 13) / 13;
const id = (v: number) => v;
const grow = (line: MinMaxSeries, to: number) => {
  for (let i = line.count; i < to; i++) line.push(i, value(i));
  return line;
};
const pointCount = (d: string) => d.split(/[ML]/).filter(Boolean).length;

describe('a long line in stretches', () => {
  it('keeps the number of path elements and their points bounded however long the run grows', () => {
    const line = chunkedLine();
    const paths = new StretchPaths();
    for (const n of [0, 1, 2, 61, 1_000, 10_000, 100_000]) {
      const ds = paths.of(grow(line, n), id, id, 's');
      expect(ds.length).toBeLessThanOrEqual(32);
      for (const d of ds) expect(pointCount(d)).toBeLessThanOrEqual(2 * 60 + 2);
    }
  });

  it('draws every point of a short run', () => {
    const d = new StretchPaths().of(grow(chunkedLine(), 40), id, id, 's').join('');
    expect(pointCount(d)).toBe(40);
  });

  it('draws the same as drawing the line whole, stretches joined end to start, as it grows', () => {
    const line = chunkedLine();
    const paths = new StretchPaths();
    for (const n of [1, 59, 60, 61, 500, 1_919, 1_920, 1_921, 5_000, 23_456]) {
      const ds = paths.of(grow(line, n), id, id, 's');
      // What a fresh drawing (nothing remembered) gives.
      expect(ds).toEqual(new StretchPaths().of(line, id, id, 's'));
      const pts = ds.map((_, k) => stretchPoints(line, k));
      for (let k = 1; k < pts.length; k++) expect(pts[k][0]).toEqual(pts[k - 1].at(-1));
      expect([pts[0], ...pts.slice(1).map((p) => p.slice(1))].flat()).toEqual(line.points());
      expect(ds[0].startsWith('M0,')).toBe(true);
      // The line ends at the newest point.
      expect(ds.at(-1)!).toMatch(new RegExp(`[ML]${n - 1},[^L]*$`));
    }
  });

  it('leaves finished stretches as they were (the same strings) while points are appended', () => {
    const line = grow(chunkedLine(), 1_000);
    const paths = new StretchPaths();
    const before = paths.of(line, id, id, 's');
    const after = paths.of(grow(line, 1_037), id, id, 's');
    expect(after.length).toBeGreaterThanOrEqual(before.length);
    for (let k = 0; k < before.length - 1; k++) expect(after[k]).toBe(before[k]);
    expect(after.at(-1)).not.toBe(before.at(-1));
  });

  it('redraws every stretch in new scales, and a new line from scratch', () => {
    const line = grow(chunkedLine(), 300);
    const paths = new StretchPaths();
    paths.of(line, id, id, 'a');
    const double = (v: number) => 2 * v;
    expect(paths.of(line, double, id, 'b')).toEqual(stretchesOf(line, double));
    const other = chunkedLine();
    other.push(0, 5);
    expect(paths.of(other, double, id, 'b')).toEqual(stretchesOf(other, double));
    expect(paths.of(other, double, id, 'b')[0]).toMatch(/^M0,5/);
  });
});

function stretchesOf(line: MinMaxSeries, x: (v: number) => number): string[] {
  return Array.from({ length: Math.max(1, Math.ceil(line.groups / 60)) }, (_, k) => seriesPath(stretchPoints(line, k) as [number, number][], x, id));
}
