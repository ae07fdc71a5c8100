import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from './config';
import { NumericFault } from './numericFault';
import { finite, NumericGuard } from './numericGuard';
import { Trainer } from './trainer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny: Config = {
  ...defaultConfig(),
  family: 'coupled',
  agents: 3,
  tasksPerUpdate: 2,
  groupSize: 4,
  updates: 6,
  tmaxStart: 10,
  tmaxEnd: 10,
  epochs: 1,
  hidden: 16,
  scorer: 8,
};

/** Sets one entry of a variable to `x`. */
function poison(v: tf.Variable, x: number): void {
  const data = v.dataSync().slice();
  data[0] = x;
  const t = tf.tensor(data, v.shape);
  v.assign(t);
  t.dispose();
}

describe('NumericGuard', () => {
  it('finds NaN and Infinity in the weights and restores the last good ones', async () => {
    const a = tf.variable(tf.tensor1d([1, 2, 3]));
    const b = tf.variable(tf.tensor2d([[4, 5]]));
    const guard = new NumericGuard([a, b]);
    expect(await guard.weightsFinite()).toBe(true);
    poison(b, NaN);
    expect(await guard.weightsFinite()).toBe(false);
    guard.restore();
    expect(Array.from(b.dataSync())).toEqual([4, 5]);
    poison(a, 7);
    guard.commit();
    poison(a, Infinity);
    expect(await guard.weightsFinite()).toBe(false);
    guard.restore();
    expect(Array.from(a.dataSync())).toEqual([7, 2, 3]);
    guard.dispose();
    tf.dispose([a, b]);
  });

  it('counts a sum of squares that overflows as a fault', async () => {
    const a = tf.variable(tf.tensor1d([3e38, 3e38]));
    const guard = new NumericGuard([a]);
    expect(await guard.weightsFinite()).toBe(false);
    guard.dispose();
    a.dispose();
  });

  it('tells finite numbers from NaN and Infinity', () => {
    expect(finite(1, 2)).toBe(true);
    expect(finite(1, NaN)).toBe(false);
    expect(finite(-Infinity)).toBe(false);
  });
});

describe('Trainer with the numeric guard', () => {
  it('stops on NaN weights with a NumericFault, restores the last good weights and trains on afterwards', async () => {
    const t = new Trainer(tiny);
    await t.step();
    const good = Array.from(t.policy.vars.g1.dataSync());
    poison(t.policy.vars.g1, NaN);
    const err = await t.step().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(NumericFault);
    expect((err as NumericFault).update).toBe(1);
    expect((err as Error).message).toContain('learning rate');
    expect(t.update).toBe(1);
    expect(Array.from(t.policy.vars.g1.dataSync())).toEqual(good);
    const r = await t.step();
    expect(Number.isFinite(r.metrics.loss)).toBe(true);
    expect(t.update).toBe(2);
    const before = tf.memory().numTensors;
    await t.step();
    expect(tf.memory().numTensors).toBe(before);
    t.dispose();
  });

  it('refuses weights with Infinity on loading, changing nothing', () => {
    const t = new Trainer(tiny);
    const json = t.policy.toJSON();
    const before = Array.from(t.policy.vars.g1.dataSync());
    json.weights.g1.data[0] = Infinity;
    expect(() => t.loadWeights(json)).toThrow(/g1/);
    expect(Array.from(t.policy.vars.g1.dataSync())).toEqual(before);
    t.dispose();
  });
});
