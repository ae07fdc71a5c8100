import { describe, expect, it } from 'vitest';
import { crossoverUpdate, discoveryUpdate, rolling, taskMix, type CurvePoint } from './definitions';
import { asNumber, below, exceeds, pm, relativeChange, verdictOf } from './rules';

const point = (update: number, tmax: number, ret: number, handoffs: number, phase: 'prior' | 'rlcr' = 'rlcr'): CurvePoint => ({
  update,
  phase,
  tmax,
  ret,
  handoffs,
  messages: 0,
  messageRate: 0,
  useful: 0,
  duplicate: 0,
  claims: 0,
  entropy: 0,
});

describe('verdict rules', () => {
  it('exceeds: every seed passes, only the mean is mixed, otherwise fail', () => {
    expect(exceeds([0.93, 0.92, 0.94], [0.43, 0.42, 0.44])).toBe('pass');
    expect(exceeds([0.95, 0.9, 0.99], [0.94, 0.94, 0.94])).toBe('mixed');
    expect(exceeds([0.9, 0.9, 0.9], [0.94, 0.94, 0.94])).toBe('fail');
    expect(exceeds([0.5, 0.5, 0.5], [0.5, 0.5, 0.5])).toBe('fail');
    expect(exceeds([1, 1, 1], [0.5, 0.5, 0.5], 0.6)).toBe('fail');
  });

  it('exceeds: a never-reached time counts as infinitely slow', () => {
    const never = asNumber(null);
    expect(exceeds([never, 30, 40], [20, 20, 20])).toBe('pass');
    expect(exceeds([never, never, 10], [never, never, 20])).toBe('fail');
    expect(exceeds([never, 10, 10], [20, 20, 20])).toBe('mixed');
  });

  it('below and relative change', () => {
    expect(below([0.01, -0.02, 0.0], 0.02)).toBe('pass');
    expect(below([0.03, -0.02, 0.0], 0.02)).toBe('mixed');
    expect(below([0.05, 0.04, 0.0], 0.02)).toBe('fail');
    expect(relativeChange([10, 4, 0], [5, 4, 0])).toEqual([-0.5, 0, 0]);
  });

  it('combines parts into a verdict', () => {
    expect(verdictOf([{ outcome: 'pass' }, { outcome: 'pass' }])).toBe('reproduced');
    expect(verdictOf([{ outcome: 'pass' }, { outcome: 'mixed' }])).toBe('partly');
    expect(verdictOf([{ outcome: 'fail' }, { outcome: 'pass' }])).toBe('partly');
    expect(verdictOf([{ outcome: 'fail' }, { outcome: 'fail' }])).toBe('not reproduced');
  });

  it('formats means with spread and never-reached values', () => {
    expect(pm([1, 2, 3], 1)).toBe('2.0 ± 1.0');
    expect(pm([1, Infinity], 1)).toBe('1.0 (1 never)');
    expect(pm([Infinity])).toBe('never');
  });
});

describe('claim measurements on hand-made curves', () => {
  it('rolling means', () => {
    expect(rolling([1, 2, 3, 4], 2)).toEqual([1, 1.5, 2.5, 3.5]);
  });

  it('finds when coordination is discovered and stays (imitation updates counted)', () => {
    const scripted = () => 10;
    const curve = [point(0, 24, 0.5, 10, 'prior'), ...[1, 6, 2, 6, 7, 8].map((h, i) => point(i + 1, 24, 0.5, h))];
    expect(discoveryUpdate(curve, scripted, 1, 0.5)).toBe(5);
    expect(discoveryUpdate(curve.slice(0, 4), scripted, 1, 0.5)).toBeNull();
  });

  it('finds the crossover of the swarm over a reference', () => {
    const curve = [0.1, 0.2, 0.5, 0.6].map((r, i) => point(i, 8 + i, r, 0));
    expect(crossoverUpdate(curve, (t) => (t >= 10 ? 0.45 : 0.3), 1)).toBe(3);
    expect(crossoverUpdate(curve, () => 0.9, 1)).toBeNull();
  });

  it('mixes tasks by share', () => {
    const s = ['s1', 's2', 's3'] as unknown as Parameters<typeof taskMix>[1];
    const c = ['c1', 'c2', 'c3'] as unknown as Parameters<typeof taskMix>[2];
    expect(taskMix(2 / 3, s, c, 3)).toEqual(['s1', 's2', 'c1']);
    expect(taskMix(0, s, c, 3)).toEqual(['c1', 'c2', 'c3']);
  });
});
