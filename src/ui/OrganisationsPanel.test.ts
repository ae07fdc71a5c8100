import { describe, expect, it } from 'vitest';
import type { RaceResult } from '../sim/race';
import { anytimeSpan } from './OrganisationsPanel';

const race = (horizon: number, median: number | null, q75: number | null): RaceResult =>
  ({ horizon, time: { median, q25: null, q75, meanReached: null, reached: median === null ? 0 : 1 } }) as RaceResult;

describe('anytimeSpan', () => {
  it('spans the slowest organisation that got there, not the single chain’s whole budget', () => {
    expect(anytimeSpan([race(576, 53, 58), race(72, 49, 54), race(72, 22, 24)])).toBe(Math.ceil(72 * 1.1));
    expect(anytimeSpan([race(576, 101, 113), race(72, null, null), race(72, 20, 22)])).toBe(Math.ceil(113 * 1.1));
    expect(anytimeSpan([race(8, null, null)])).toBe(10);
  });
});
