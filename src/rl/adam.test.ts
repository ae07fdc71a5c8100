import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { FlatAdam } from './adam';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const values = (n: number, seed: number) => Array.from({ length: n }, (_, i) => Math.sin(seed * 3.1 + i * 0.9) * (1 + (i % 3)));

/** Two sets of the same three variables, one stepped by TF.js's Adam and one by FlatAdam, with the same gradients. */
function twins() {
  const shapes = [[3, 4], [4], [2, 2, 2]];
  const make = (tag: string) =>
    shapes.map((s, k) =>
      tf.variable(
        tf.tensor(
          values(
            s.reduce((a, b) => a * b),
            k,
          ),
          s,
        ),
        true,
        `adam-test-${tag}-${k}-${Math.random()}`,
      ),
    );
  return { shapes, ref: make('ref'), flat: make('flat') };
}

describe('FlatAdam', () => {
  it("steps every weight to TF.js's Adam's float, bit for bit, across steps and a change of learning rate", () => {
    const { shapes, ref, flat } = twins();
    const reference = new tf.AdamOptimizer(0.01, 0.9, 0.999);
    const adam = new FlatAdam(0.01);
    for (let step = 0; step < 5; step++) {
      if (step === 3) {
        (reference as unknown as { learningRate: number }).learningRate = 0.002;
        adam.learningRate = 0.002;
      }
      const grads = shapes.map((s, k) =>
        tf.tensor(
          values(
            s.reduce((a, b) => a * b),
            10 * step + k,
          ),
          s,
        ),
      );
      reference.applyGradients(ref.map((v, k) => ({ name: v.name, tensor: grads[k] })));
      adam.applyGradients(Object.fromEntries(flat.map((v, k) => [v.name, grads[k]])));
      tf.dispose(grads);
    }
    ref.forEach((v, k) => {
      expect(Array.from(flat[k].dataSync())).toEqual(Array.from(v.dataSync()));
      expect(Array.from(v.dataSync())).not.toEqual(values(v.size, k));
    });
    reference.dispose();
    adam.dispose();
    tf.dispose([...ref, ...flat]);
  });

  it('refuses a step over other variables than the first, and frees its state', () => {
    const { flat } = twins();
    const before = tf.memory().numTensors;
    const adam = new FlatAdam(0.01);
    const grads = flat.map((v) => tf.onesLike(v));
    adam.applyGradients(Object.fromEntries(flat.map((v, k) => [v.name, grads[k]])));
    expect(() => adam.applyGradients({ [flat[0].name]: grads[0] })).toThrow(/same variables/);
    tf.dispose(grads);
    adam.dispose();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose(flat);
  });
});
