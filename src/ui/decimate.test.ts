import { describe, expect, it } from 'vitest';
import { decimate } from './decimate';

const series = (n: number, f: (i: number) => number): [number, number][] => Array.from({ length: n }, (_, i) => [i, f(i)]);

describe('decimate', () => {
  it('returns a short series as it is', () => {
    const s = series(10, (i) => i);
    expect(decimate(s, 5)).toBe(s);
  });

  it('bounds a long series to about two points per bucket, first and last kept, in order', () => {
    const s = series(10_000, (i) => Math.sin(i / 50));
    const d = decimate(s, 100);
    expect(d.length).toBeLessThanOrEqual(202);
    expect(d[0]).toBe(s[0]);
    expect(d[d.length - 1]).toBe(s[s.length - 1]);
    for (let i = 1; i < d.length; i++) expect(d[i][0]).toBeGreaterThan(d[i - 1][0]);
  });

  it('keeps a lone spike and a lone dip', () => {
    const s = series(1000, (i) => (i === 437 ? 5 : i === 801 ? -5 : 0));
    const d = decimate(s, 20);
    expect(d).toContainEqual([437, 5]);
    expect(d).toContainEqual([801, -5]);
  });
});
