import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../sim/actions';
import { OBS_DIM } from '../sim/observe';
import { SwarmPolicy } from './policy';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('SwarmPolicy', () => {
  it('initialises deterministically from a seed', () => {
    const a = SwarmPolicy.create(undefined, 3);
    const b = SwarmPolicy.create(undefined, 3);
    const c = SwarmPolicy.create(undefined, 4);
    expect(a.toJSON().weights).toEqual(b.toJSON().weights);
    expect(a.toJSON().weights).not.toEqual(c.toJSON().weights);
    [a, b, c].forEach((p) => p.dispose());
  });

  it('leaves no tensors behind when created, saved, loaded and disposed', () => {
    const before = tf.memory().numTensors;
    const p = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 5);
    const q = SwarmPolicy.fromJSON(p.toJSON());
    p.dispose();
    q.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('gives illegal actions zero probability', () => {
    const p = SwarmPolicy.create(undefined, 1);
    const mask = new Float32Array(2 * NUM_ACTIONS);
    mask[0] = 1;
    mask[5] = 1;
    mask[NUM_ACTIONS + 42] = 1;
    const probs = tf.tidy(() => tf.exp(p.logProbs(tf.randomUniform([2, OBS_DIM], 0, 1, 'float32', 1) as tf.Tensor2D, tf.tensor2d(mask, [2, NUM_ACTIONS])).logp).arraySync() as number[][]);
    expect(probs[0][0] + probs[0][5]).toBeCloseTo(1, 5);
    expect(probs[1][42]).toBeCloseTo(1, 5);
    expect(probs[0][7]).toBe(0);
    p.dispose();
  });

  it('chooses the kind first: with all weights zero each legal kind is equally likely', () => {
    const p = SwarmPolicy.create(undefined, 1);
    for (const v of Object.values(p.vars)) v.assign(tf.zerosLike(v));
    const mask = new Float32Array(NUM_ACTIONS).fill(0);
    [0, 1, 2, 24, 25, 26, 27, 28, 29, 30, 40, 42].forEach((a) => (mask[a] = 1)); // 3 work, 7 dm, post, idle
    const probs = tf.tidy(() => tf.exp(p.logProbs(tf.zeros([1, OBS_DIM]) as tf.Tensor2D, tf.tensor2d(mask, [1, NUM_ACTIONS])).logp).arraySync() as number[][])[0];
    expect(probs[0]).toBeCloseTo(1 / 4 / 3, 5);
    expect(probs[24]).toBeCloseTo(1 / 4 / 7, 5);
    expect(probs[40]).toBeCloseTo(1 / 4, 5);
    expect(probs[42]).toBeCloseTo(1 / 4, 5);
    expect(probs[41]).toBe(0);
    expect(probs.reduce((a, b) => a + b)).toBeCloseTo(1, 5);
    p.dispose();
  });

  it('round-trips through plain JSON and rejects a mismatched file', () => {
    const p = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 2);
    const json = JSON.parse(JSON.stringify(p.toJSON()));
    const q = SwarmPolicy.fromJSON(json);
    expect(q.toJSON()).toEqual(p.toJSON());
    expect(() => SwarmPolicy.fromJSON({ ...json, version: 2 })).toThrow(/version/);
    expect(() => SwarmPolicy.fromJSON({ ...json, weights: { ...json.weights, g1: { shape: [1], data: [0] } } })).toThrow(/g1/);
    expect(() => SwarmPolicy.fromJSON('nonsense')).toThrow(/not a swarm policy/);
    p.dispose();
    q.dispose();
  });
});
