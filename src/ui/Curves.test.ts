import { describe, expect, it } from 'vitest';
import { signed, tickDigits } from './Curves';

describe("the relative curve's readout", () => {
  it('writes the lead over the scripted organisation with its sign, as the curve plots it', () => {
    expect(signed(0.0524)).toBe('+0.052');
    expect(signed(-0.1544)).toBe('−0.154');
    expect(signed(0)).toBe('0.000');
    expect(signed(-0.0001)).toBe('0.000');
  });
});

describe("the curve's y ticks", () => {
  it('carry as many decimals as tell them apart', () => {
    expect(tickDigits([-0.2, 0, 0.2])).toBe(1);
    expect(tickDigits([-0.15, -0.1, -0.05, 0, 0.05, 0.1])).toBe(2);
    expect(tickDigits([0, 0.5, 1])).toBe(1);
    expect(tickDigits([0.5])).toBe(1);
    expect([-0.15, -0.1, -0.05, 0.05, 0.1].map((t) => t.toFixed(tickDigits([-0.15, -0.1])))).toEqual(['-0.15', '-0.10', '-0.05', '0.05', '0.10']);
  });
});
