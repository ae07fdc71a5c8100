import { describe, expect, it } from 'vitest';
import { signed } from './Curves';

describe("the relative curve's readout", () => {
  it('writes the lead over the scripted organisation with its sign, as the curve plots it', () => {
    expect(signed(0.0524)).toBe('+0.052');
    expect(signed(-0.1544)).toBe('−0.154');
    expect(signed(0)).toBe('0.000');
    expect(signed(-0.0001)).toBe('0.000');
  });
});
