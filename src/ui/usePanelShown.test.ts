import { describe, expect, it } from 'vitest';
import { HeldValue } from './usePanelShown';

describe('HeldValue', () => {
  it('gives the newest value while shown', () => {
    const h = new HeldValue<number>(2000);
    expect(h.pick(() => 1, true, 0)).toBe(1);
    expect(h.pick(() => 2, true, 1)).toBe(2);
  });

  it('out of sight holds the last value, renews it every refreshMs, and catches up when shown again', () => {
    const h = new HeldValue<{ n: number }>(2000);
    const first = h.pick(() => ({ n: 1 }), true, 0);
    expect(h.pick(() => ({ n: 2 }), false, 500)).toBe(first);
    expect(h.pick(() => ({ n: 3 }), false, 1999)).toBe(first);
    expect(h.pick(() => ({ n: 4 }), false, 2000)).toEqual({ n: 4 });
    expect(h.pick(() => ({ n: 5 }), false, 2500)).toEqual({ n: 4 });
    expect(h.pick(() => ({ n: 6 }), true, 2600)).toEqual({ n: 6 });
  });

  it('takes a first value even out of sight', () => {
    expect(new HeldValue<number>(2000).pick(() => 7, false, 0)).toBe(7);
  });
});
