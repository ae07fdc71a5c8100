import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { dense } from './dense';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('dense', () => {
  it('matches matMul in value and gradient', () => {
    const x = tf.tensor2d([1, 2, 3, 4, 5, 6], [2, 3]);
    const w = tf.tensor2d([0.5, -1, 2, 0, 1, 3], [3, 2]);
    expect(dense(x, w).arraySync()).toEqual(tf.matMul(x, w).arraySync());
    const loss = (f: (a: tf.Tensor2D, b: tf.Tensor2D) => tf.Tensor2D) => (a: tf.Tensor, b: tf.Tensor) =>
      tf.sum(tf.square(f(a as tf.Tensor2D, b as tf.Tensor2D)));
    const [gx, gw] = tf.grads(loss(dense))([x, w]);
    const [ex, ew] = tf.grads(loss((a, b) => tf.matMul(a, b)))([x, w]);
    expect(gx.arraySync()).toEqual(ex.arraySync());
    expect(gw.arraySync()).toEqual(ew.arraySync());
  });
});
