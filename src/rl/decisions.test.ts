import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { A_CLAIM, A_DM, A_IDLE, A_POST, NUM_ACTIONS } from '../sim/actions';
import { OBS_DIM } from '../sim/observe';
import { Rng } from '../sim/rng';
import { MAX_MODULES } from '../sim/task';
import { flatProbabilities, KINDS, packChoices, packDecisions } from './decisions';
import { choiceTensors, chosenLogProb, decisionTensors, headsEntropy, SwarmPolicy } from './policy';
import { referenceLogProbs } from './referenceLogProbs';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** R random decision rows of a team of `agents`: random observations, masks as the env makes them, a legal choice each. */
function rows(R: number, agents: number, seed: number) {
  const rng = new Rng(seed, 1);
  const obs = Float32Array.from({ length: R * OBS_DIM }, () => rng.next() * 2);
  const mask = new Float32Array(R * NUM_ACTIONS);
  const actions = new Int32Array(R);
  for (let r = 0; r < R; r++) {
    const b = r * NUM_ACTIONS;
    for (let a = 0; a < NUM_ACTIONS; a++) if (rng.next() < 0.5 && !(a >= A_DM + agents && a < A_POST)) mask[b + a] = 1;
    mask[b + A_IDLE] = 1;
    const legal = [...Array(NUM_ACTIONS).keys()].filter((a) => mask[b + a] === 1);
    actions[r] = legal[Math.floor(rng.next() * legal.length)];
  }
  return { obs, mask, actions };
}

describe('decision rows', () => {
  it('packs a subset of rows in order, and refuses choices it cannot score', () => {
    const { obs, mask, actions } = rows(10, 8, 1);
    const all = packDecisions(obs, mask, 10, MAX_MODULES, 8);
    const some = packDecisions(obs, mask, 3, MAX_MODULES, 8, [7, 2, 7]);
    const width = all.trunk.length / 10;
    expect(Array.from(some.trunk.subarray(0, width))).toEqual(Array.from(all.trunk.subarray(7 * width, 8 * width)));
    expect(Array.from(some.argBias.subarray(2 * MAX_MODULES, 4 * MAX_MODULES))).toEqual(Array.from(all.argBias.subarray(4 * MAX_MODULES, 6 * MAX_MODULES)));
    const hot = packChoices(actions, 10, MAX_MODULES, 8);
    for (let r = 0; r < 10; r++) expect(hot.kind.subarray(r * KINDS, (r + 1) * KINDS).reduce((s, x) => s + x, 0)).toBe(1);
    expect(() => packChoices([A_CLAIM + 5], 1, 4, 8)).toThrow(/module 5/);
    expect(() => packChoices([A_DM + 9], 1, MAX_MODULES, 8)).toThrow(/agent 9/);
    expect(() => packDecisions(obs, mask, 1, 0, 8)).toThrow(RangeError);
  });

  it('gives the reference probabilities of the flat layout, the chosen log-probability and the entropy', () => {
    const p = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 3);
    const R = 40;
    const agents = 6;
    const M = MAX_MODULES;
    const { obs, mask, actions } = rows(R, agents, 2);
    const d = packDecisions(obs, mask, R, M, agents);
    const c = packChoices(actions, R, M, agents);
    const { heads, lp, ent, ref } = tf.tidy(() => {
      const h = p.heads(decisionTensors(d));
      return {
        heads: tf.concat([h.kind, h.arg.reshape([R, 2 * M]), h.dm], 1).dataSync() as Float32Array,
        lp: chosenLogProb(h, choiceTensors(c, R, M, agents)).dataSync(),
        ent: headsEntropy(h).dataSync(),
        ref: referenceLogProbs(p, tf.tensor2d(obs, [R, OBS_DIM]), tf.tensor2d(mask, [R, NUM_ACTIONS]), agents).arraySync(),
      };
    });
    const probs = new Float32Array(R * NUM_ACTIONS);
    flatProbabilities(heads, R, M, agents, probs);
    for (let r = 0; r < R; r++) {
      let sum = 0;
      let h = 0;
      for (let a = 0; a < NUM_ACTIONS; a++) {
        const q = probs[r * NUM_ACTIONS + a];
        sum += q;
        if (mask[r * NUM_ACTIONS + a] === 0) expect(q).toBe(0);
        else {
          expect(q).toBeCloseTo(Math.exp(ref[r][a]), 5);
          h -= q > 0 ? q * Math.log(q) : 0;
        }
      }
      expect(sum).toBeCloseTo(1, 5);
      expect(lp[r]).toBeCloseTo(ref[r][actions[r]], 4);
      expect(ent[r]).toBeCloseTo(h, 4);
    }
    p.dispose();
  });
});
