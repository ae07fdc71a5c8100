import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { scorer } from './scorer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** Deterministic values in [-1, 1]. */
const fill = (n: number, seed: number) => Array.from({ length: n }, (_, i) => Math.sin(seed * 7.3 + i * 1.7));

/** The scorer written op by op, differentiated by TF.js itself. */
function plain(x: tf.Tensor2D, ctx: tf.Tensor2D, wIn: tf.Tensor2D, wOut: tf.Tensor2D, items: number): tf.Tensor2D {
  const [rows, S] = ctx.shape;
  const z = tf.relu(tf.add(tf.matMul(x, wIn).reshape([rows, items, S]), ctx.reshape([rows, 1, S]))).reshape([rows * items, S]) as tf.Tensor2D;
  return tf.matMul(z, wOut);
}

describe('scorer', () => {
  const rows = 5;
  const items = 3;
  const F = 4;
  const S = 6;
  for (const O of [2, 1]) {
    it(`matches the op-by-op scorer in value and in every gradient (${O} output${O > 1 ? 's' : ''})`, () => {
      const x = tf.tensor2d(fill(rows * items * F, 1), [rows * items, F]);
      const ctx = tf.tensor2d(fill(rows * S, 2), [rows, S]);
      const wIn = tf.tensor2d(fill(F * S, 3), [F, S]);
      const wOut = tf.tensor2d(fill(S * O, 4), [S, O]);
      const target = tf.tensor2d(fill(rows * items * O, 5), [rows * items, O]);
      // A loss that weights every output differently, so a wrong gradient cannot cancel out.
      const loss = (f: typeof plain) => (c: tf.Tensor, w1: tf.Tensor, w2: tf.Tensor) => tf.sum(tf.mul(f(x, c as tf.Tensor2D, w1 as tf.Tensor2D, w2 as tf.Tensor2D, items), target));
      const xT = tf.transpose(x) as tf.Tensor2D;
      const fused = (xx: tf.Tensor2D, c: tf.Tensor2D, w1: tf.Tensor2D, w2: tf.Tensor2D, n: number) => scorer(xx, xT, c, w1, w2, n);
      const got = tf.grads(loss(fused))([ctx, wIn, wOut]);
      const want = tf.grads(loss(plain))([ctx, wIn, wOut]);
      expect(got.map((g) => g.shape)).toEqual([[rows, S], [F, S], [S, O]]);
      got.forEach((g, i) => {
        const a = g.dataSync();
        const b = want[i].dataSync();
        expect(b.some((v) => v !== 0)).toBe(true);
        a.forEach((v, j) => expect(v).toBeCloseTo(b[j], 5));
      });
      expect(scorer(x, xT, ctx, wIn, wOut, items).dataSync()).toEqual(plain(x, ctx, wIn, wOut, items).dataSync());
      expect(scorer(x, undefined, ctx, wIn, wOut, items).dataSync()).toEqual(plain(x, ctx, wIn, wOut, items).dataSync());
    });
  }

  it('frees what it keeps for the backward pass', () => {
    const x = tf.tensor2d(fill(rows * items * F, 1), [rows * items, F]);
    const xT = tf.transpose(x) as tf.Tensor2D;
    const ctx = tf.variable(tf.tensor2d(fill(rows * S, 2), [rows, S]));
    const wIn = tf.variable(tf.tensor2d(fill(F * S, 3), [F, S]));
    const wOut = tf.variable(tf.tensor2d(fill(S * 2, 4), [S, 2]));
    const step = () => {
      const { value, grads } = tf.variableGrads(() => tf.sum(tf.square(scorer(x, xT, ctx, wIn, wOut, items))) as tf.Scalar, [ctx, wIn, wOut]);
      tf.dispose([value, ...Object.values(grads)]);
    };
    step();
    const after = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) step();
    expect(tf.memory().numTensors).toBe(after);
  });
});
