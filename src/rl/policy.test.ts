import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { A_DM, A_IDLE, A_POST, NUM_ACTIONS } from '../sim/actions';
import { AGENT_DIM, MODULE_DIM, OBS_DIM } from '../sim/observe';
import { Rng } from '../sim/rng';
import { KINDS, TRUNK_WIDTH } from './decisions';
import { backendView, flatScores, SwarmPolicy, uploadCopies } from './policy';
import { referenceLogProbs } from './referenceLogProbs';
import { onWasmBackend } from './testing';

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

  it('acts with the current weights: the fused weights of the forward pass follow every assignment, and dispose frees them', () => {
    const before = tf.memory().numTensors;
    const p = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 1);
    const q = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 2);
    const R = 3;
    const M = 4;
    const A = 5;
    const input = (n: number, w: number, seed: number) =>
      tf.tensor2d(
        Array.from({ length: n * w }, (_, i) => Math.sin(i * 0.7 + seed)),
        [n, w],
      );
    const trunk = input(R, TRUNK_WIDTH, 1);
    const modules = input(R * M, MODULE_DIM, 2);
    const agents = input(R * A, AGENT_DIM, 3);
    const scores = (x: SwarmPolicy) => tf.tidy(() => Array.from(flatScores(x.forward(trunk, modules, agents, M, A)).dataSync()));
    const first = scores(p);
    expect(first).toHaveLength(R * (KINDS + 2 * M + A));
    expect(scores(p)).toEqual(first);
    p.copyFrom(q);
    expect(scores(p)).toEqual(scores(q));
    expect(scores(p)).not.toEqual(first);
    tf.dispose([trunk, modules, agents]);
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
    const probs = tf.tidy(
      () =>
        tf
          .exp(p.logProbs(tf.randomUniform([2, OBS_DIM], 0, 1, 'float32', 1) as tf.Tensor2D, tf.tensor2d(mask, [2, NUM_ACTIONS])).logp)
          .arraySync() as number[][],
    );
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
    const probs = tf.tidy(
      () => tf.exp(p.logProbs(tf.zeros([1, OBS_DIM]) as tf.Tensor2D, tf.tensor2d(mask, [1, NUM_ACTIONS])).logp).arraySync() as number[][],
    )[0];
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

describe('the heads (one log-softmax per head over packed rows)', () => {
  it('gives the reference log-probabilities of every legal action, and their gradients', () => {
    const p = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 5);
    const R = 64;
    const rng = new Rng(9, 1);
    const m = new Float32Array(R * NUM_ACTIONS);
    for (let i = 0; i < m.length; i++) m[i] = rng.next() < 0.6 ? 1 : 0;
    for (let r = 0; r < R; r++) {
      m[r * NUM_ACTIONS + A_IDLE] = 1;
      m.fill(0, r * NUM_ACTIONS + A_DM + 8, r * NUM_ACTIONS + A_POST); // a team of 8: no DM beyond it, as in the env
    }
    for (let a = A_DM; a < A_POST; a++) m[3 * NUM_ACTIONS + a] = 0; // a row with no legal DM at all
    const obs = tf.randomUniform([R, OBS_DIM], 0, 2, 'float32', 3) as tf.Tensor2D;
    const mask = tf.tensor2d(m, [R, NUM_ACTIONS]);
    const weights = tf.randomUniform([R, NUM_ACTIONS], 0, 1, 'float32', 4).mul(mask);
    const ours = tf.tidy(() => p.logProbs(obs, mask, 8).logp.arraySync());
    const ref = tf.tidy(() => referenceLogProbs(p, obs, mask, 8).arraySync());
    for (let r = 0; r < R; r++)
      for (let a = 0; a < NUM_ACTIONS; a++) {
        if (m[r * NUM_ACTIONS + a]) expect(ours[r][a]).toBeCloseTo(ref[r][a], 4);
        else expect(ours[r][a]).toBeLessThan(-1e8);
      }
    const vars = Object.values(p.vars);
    const g1 = tf.variableGrads(() => tf.sum(tf.mul(p.logProbs(obs, mask, 8).logp, weights)) as tf.Scalar, vars).grads;
    const g2 = tf.variableGrads(() => tf.sum(tf.mul(referenceLogProbs(p, obs, mask, 8), weights)) as tf.Scalar, vars).grads;
    // Relative to the norm of the whole gradient: some entries (the bias shared by all modules' work
    // logits) are exactly zero in the reference, up to rounding, and absent from the heads, which
    // leave those biases out because they cancel.
    let diff = 0;
    let norm = 0;
    for (const k of Object.keys(g2)) {
      const a = g1[k]?.dataSync() ?? new Float32Array(g2[k].size);
      const b = g2[k].dataSync();
      for (let i = 0; i < b.length; i++) {
        diff += (a[i] - b[i]) ** 2;
        norm += b[i] ** 2;
      }
    }
    expect(norm).toBeGreaterThan(1e-6);
    expect(Math.sqrt(diff / norm)).toBeLessThan(1e-4);
    tf.dispose([obs, mask, weights, ...Object.values(g1), ...Object.values(g2)]);
    p.dispose();
  });
});

describe('where the backend keeps its numbers', () => {
  it('on cpu: no view (read back with data()), and uploads keep the array they are given', () => {
    const a = new Float32Array([1, 2, 3]);
    const t = tf.tensor1d(a);
    expect(backendView(t)).toBeNull();
    expect(uploadCopies()).toBe(false);
    t.dispose();
  });

  describe('on wasm', () => {
    onWasmBackend();

    it("views a result's numbers in place, and an upload copies its array", () => {
      expect(uploadCopies()).toBe(true);
      const a = new Float32Array([1, -2, 3.5, 0.25]);
      const t = tf.tensor1d(a);
      a.fill(9); // the upload was a copy: the tensor keeps the numbers it was made with
      const sum = tf.tidy(() => tf.add(t, tf.scalar(1)));
      const view = backendView(sum)!;
      expect(Array.from(view)).toEqual([2, -1, 4.5, 1.25]);
      expect(Array.from(view)).toEqual(Array.from(sum.dataSync()));
      expect(view.buffer).not.toBe(sum.dataSync().buffer); // a view of the backend's memory, not a copy
      const ints = tf.tensor1d([1, 2], 'int32');
      expect(backendView(ints)).toBeNull();
      tf.dispose([t, sum, ints]);
    });
  });
});
