import { describe, expect, it } from 'vitest';
import { inferenceScaling, type UpdatePoint } from '../sim/race';
import { InferenceCurve } from './inferenceCurve';

const update = (u: number): UpdatePoint => ({
  update: u,
  tmax: 8 + (u % 5),
  ret: (u % 7) / 7,
  useful: 10 + ((u * 13) % 17),
  messages: (u * 3) % 11,
  handoffs: u % 4,
});

describe('InferenceCurve', () => {
  it('gives the same points as inferenceScaling over the whole run, update by update', () => {
    const curve = new InferenceCurve();
    let metrics: UpdatePoint[] = [];
    for (let n = 1; n <= 700; n++) {
      metrics = [...metrics, update(n - 1)];
      const stride = Math.max(1, Math.floor(n / 150));
      expect(curve.of(metrics, 25, stride)).toEqual(inferenceScaling(metrics, 25, stride));
    }
  });

  it('starts over for another run, and is empty without updates', () => {
    const curve = new InferenceCurve();
    const a = Array.from({ length: 40 }, (_, i) => update(i));
    curve.of(a, 5, 3);
    const b = a.map((m) => ({ ...m, useful: m.useful * 2 }));
    expect(curve.of(b, 5, 3)).toEqual(inferenceScaling(b, 5, 3));
    expect(curve.of([], 5, 3)).toEqual([]);
  });
});
