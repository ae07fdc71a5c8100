import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { A_CLAIM, A_DM, A_IDLE, NUM_ACTIONS } from '../sim/actions';
import { OBS_DIM } from '../sim/observe';
import { Rng } from '../sim/rng';
import { packChoices, packDecisions } from './decisions';
import { choiceTensors, chosenLogProb, decisionTensors, headsEntropy, SwarmPolicy } from './policy';
import { lossAndGradients, type RowLoss } from './policyGradient';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const ROWS = 40;
const M = 7;
const A = 5;

/**
 * Decision rows of a team of A agents with M modules: random observations, random masks (each
 * action legal with probability 0.6; some rows without any legal work, claim or DM), and a legal
 * choice per row, spread over every kind.
 */
function rows(seed: number) {
  const rng = new Rng(seed, 3);
  const obs = Float32Array.from({ length: ROWS * OBS_DIM }, () => rng.next());
  const mask = new Float32Array(ROWS * NUM_ACTIONS);
  const actions = new Int32Array(ROWS);
  for (let r = 0; r < ROWS; r++) {
    const b = r * NUM_ACTIONS;
    for (let a = 0; a < NUM_ACTIONS; a++) {
      const module = a < A_DM ? a % A_CLAIM : -1;
      if (module >= M || (a >= A_DM && a < A_DM + 16 && a - A_DM >= A)) continue;
      if (r % 5 === 4 && a < A_DM + 16) continue; // no work, claim or DM at all in every fifth row
      if (rng.next() < 0.6) mask[b + a] = 1;
    }
    mask[b + A_IDLE] = 1;
    const legal = [...Array(NUM_ACTIONS).keys()].filter((a) => mask[b + a] === 1);
    actions[r] = legal[(r * 7) % legal.length];
  }
  const d = decisionTensors(packDecisions(obs, mask, ROWS, M, A));
  const c = choiceTensors(packChoices(actions, ROWS, M, A), ROWS, M, A);
  return { d, c, actions };
}

/** The trainer's loss: clipped surrogate, entropy bonus, value loss (the critic ablation's). */
function ppoLoss(adv: tf.Tensor1D, old: tf.Tensor1D, target: tf.Tensor1D, critic: boolean): RowLoss {
  return (chosen, entropy, value) => {
    const ratio = tf.exp(tf.sub(chosen, old));
    const surrogate = tf.minimum(tf.mul(ratio, adv), tf.mul(tf.clipByValue(ratio, 0.8, 1.2), adv));
    let loss = tf.sub(tf.neg(tf.mean(surrogate)), tf.mul(0.01, tf.mean(entropy)));
    if (critic) loss = tf.add(loss, tf.mul(0.5, tf.mean(tf.square(tf.sub(value, target)))));
    return loss as tf.Scalar;
  };
}

function expectClose(got: tf.Tensor, want: tf.Tensor, name: string): void {
  expect(got.shape, name).toEqual(want.shape);
  const a = got.dataSync();
  const b = want.dataSync();
  const scale = Math.max(1e-6, ...Array.from(b, Math.abs));
  for (let i = 0; i < b.length; i++) expect(Math.abs(a[i] - b[i]) / scale, `${name}[${i}]: ${a[i]} vs ${b[i]}`).toBeLessThan(2e-4);
}

describe('lossAndGradients', () => {
  for (const [label, critic, imitation] of [
    ['the clipped surrogate with an entropy bonus', false, false],
    ['the same with the critic’s value loss', true, false],
    ['the prior’s cross-entropy (no entropy, no value)', false, true],
  ] as const) {
    it(`gives the loss, the entropy and every weight's gradient that TF.js's tape gives: ${label}`, () => {
      const policy = SwarmPolicy.create({ hidden: 12, scorer: 6 }, 9);
      const { d, c } = rows(label.length);
      const rng = new Rng(5, 1);
      const adv = tf.tensor1d(Array.from({ length: ROWS }, () => rng.next() * 2 - 1));
      // Old log-probabilities shifted from the current ones, so some rows are clipped and some not.
      const old = tf.tidy(() =>
        tf.add(chosenLogProb(policy.heads(d), c), tf.tensor1d(Array.from({ length: ROWS }, (_, r) => (r % 3) * 0.25 - 0.25))),
      ) as tf.Tensor1D;
      const target = tf.tensor1d(Array.from({ length: ROWS }, () => rng.next()));
      const loss: RowLoss = imitation ? (chosen) => tf.neg(tf.mean(chosen)) as tf.Scalar : ppoLoss(adv, old, target, critic);
      const vars = Object.values(policy.vars);
      let taped: tf.Scalar | null = null;
      const want = tf.variableGrads(() => {
        const heads = policy.heads(d);
        const entropy = headsEntropy(heads);
        taped = tf.keep(tf.mean(entropy));
        return loss(chosenLogProb(heads, c), entropy, heads.value);
      }, vars);
      const got = lossAndGradients(policy, d, c, loss);
      expectClose(got.loss, want.value, 'loss');
      expectClose(got.entropy, taped!, 'entropy');
      // The tape omits the two output biases the heads leave out (they cancel in the softmax).
      expect(Object.keys(got.grads).sort()).toEqual(Object.keys(want.grads).sort());
      for (const [name, g] of Object.entries(want.grads)) expectClose(got.grads[name], g, name);
      const nonzero = Object.values(got.grads).filter((g) => g.dataSync().some((x) => x !== 0)).length;
      expect(nonzero).toBeGreaterThanOrEqual(imitation || !critic ? 14 : 16);
      policy.dispose();
    });
  }

  it('leaves no tensors behind beyond what it returns', () => {
    const policy = SwarmPolicy.create({ hidden: 12, scorer: 6 }, 2);
    const { d, c } = rows(3);
    const loss: RowLoss = (chosen, entropy) => tf.sub(tf.neg(tf.mean(chosen)), tf.mul(0.1, tf.mean(entropy))) as tf.Scalar;
    tf.dispose(Object.values(lossAndGradients(policy, d, c, loss).grads)); // makes the backend's constants
    const before = tf.memory().numTensors;
    const r = lossAndGradients(policy, d, c, loss);
    expect(tf.memory().numTensors).toBe(before + 2 + Object.keys(r.grads).length);
    tf.dispose([r.loss, r.entropy, ...Object.values(r.grads)]);
    policy.dispose();
  });
});
