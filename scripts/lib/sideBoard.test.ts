import { describe, expect, it } from 'vitest';
import { atLast, fellUnder, tenths } from './sideBoard';

const curve = (shares: number[], imitation = 0) => [
  ...Array.from({ length: imitation }, (_, u) => ({ update: u, phase: 'prior' as const, sideShare: 1 })),
  ...shares.map((s, i) => ({ update: imitation + i, phase: 'rlcr' as const, sideShare: s })),
];

describe('the side-board summary', () => {
  it('averages the first, middle and last tenth of the RLCR updates', () => {
    const shares = Array.from({ length: 100 }, (_, i) => i / 100);
    const [first, middle, last] = tenths(curve(shares, 5), 'sideShare');
    expect(first).toBeCloseTo(0.045, 6);
    expect(middle).toBeCloseTo(0.495, 6);
    expect(last).toBeCloseTo(0.945, 6);
    expect(atLast(curve(shares), 'sideShare')).toBeCloseTo(0.99, 6);
  });

  it('takes one update a tenth on a short curve, and reads a missing counter as 0', () => {
    expect(tenths(curve([0.2, 0.4, 0.6]), 'sideShare')).toEqual([0.2, 0.4, 0.6]);
    expect(tenths([{ update: 0, phase: 'rlcr' }], 'attempts')).toEqual([0, 0, 0]);
    expect(tenths([], 'sideShare').every(Number.isNaN)).toBe(true);
  });

  it('finds the update from which the rolling share stays under the threshold', () => {
    // High for 20 updates, then 0.05: the 10-update mean first drops under 0.1 at update 29.
    const shares = [...Array.from({ length: 20 }, () => 0.9), ...Array.from({ length: 30 }, () => 0.05)];
    expect(fellUnder(curve(shares), 0.1, 10)).toBe(29);
    expect(fellUnder(curve(shares), 0.1, 1)).toBe(20);
    // A relapse at the end: it has not stayed under.
    expect(fellUnder(curve([...shares, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9]), 0.1, 3)).toBeNull();
    expect(fellUnder(curve([0.5, 0.6]), 0.1)).toBeNull();
    expect(fellUnder(curve([0.01, 0.02]), 0.1)).toBe(0);
  });
});
