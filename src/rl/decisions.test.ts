import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { A_CLAIM, A_DM, A_IDLE, A_POST, NUM_ACTIONS } from '../sim/actions';
import { encodeMasks, encodeObservations, OBS_DIM } from '../sim/observe';
import { encodeSharedObservations, SharedObservations } from '../sim/observeShared';
import { createStructure } from '../sim/presets';
import { Rng } from '../sim/rng';
import { generateTask, MAX_AGENTS, MAX_MODULES } from '../sim/task';
import { OBSERVATION_CASES, playMixedEpisode } from '../sim/testing';
import { actionProbabilities, KINDS, packChoices, packDecisions, packObservations, packSharedDecisions, PackStore, type DecisionRows } from './decisions';
import { choiceTensors, chosenLogProb, decisionTensors, flatScores, headsEntropy, SwarmPolicy } from './policy';
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

  it('packs into a reused store exactly what it packs into arrays of its own, whatever the store held before', () => {
    const store = new PackStore();
    const big = rows(12, 8, 4);
    const small = rows(5, 6, 5);
    const fields = ['trunk', 'modules', 'agents', 'kindBias', 'argBias', 'dmBias'] as const;
    const same = (a: DecisionRows, b: DecisionRows) => {
      expect([a.rows, a.M, a.A]).toEqual([b.rows, b.M, b.A]);
      for (const k of fields) expect(Array.from(a[k]), k).toEqual(Array.from(b[k]));
    };
    // A large pack first leaves every array dirty (ones, legal actions); a smaller one after it must not see them.
    same(packDecisions(big.obs, big.mask, 12, MAX_MODULES, 8, null, store), packDecisions(big.obs, big.mask, 12, MAX_MODULES, 8));
    const first = packDecisions(small.obs, small.mask, 3, 7, 6, [4, 0, 2], store);
    same(first, packDecisions(small.obs, small.mask, 3, 7, 6, [4, 0, 2]));
    for (const k of fields) expect(first[k].length, k).toBeLessThan(store.view(k, 0).buffer.byteLength / 4);
    const c = packChoices(big.actions, 12, MAX_MODULES, 8, null, store);
    const d = packChoices(small.actions, 4, 7, 6, [3, 1, 0, 2], store);
    expect(Array.from(d.kind)).toEqual(Array.from(packChoices(small.actions, 4, 7, 6, [3, 1, 0, 2]).kind));
    expect(Array.from(d.arg)).toEqual(Array.from(packChoices(small.actions, 4, 7, 6, [3, 1, 0, 2]).arg));
    expect(Array.from(d.dm)).toEqual(Array.from(packChoices(small.actions, 4, 7, 6, [3, 1, 0, 2]).dm));
    // The views are the store's: the next pack writes over the last one.
    expect(c.kind.buffer).toBe(d.kind.buffer);
  });

  it('gives the reference probabilities of the flat layout, the chosen log-probability and the entropy', () => {
    const p = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 3);
    const R = 40;
    const agents = 6;
    const M = MAX_MODULES;
    const { obs, mask, actions } = rows(R, agents, 2);
    const d = packDecisions(obs, mask, R, M, agents);
    const c = packChoices(actions, R, M, agents);
    const { scores, lp, ent, ref } = tf.tidy(() => {
      const t = decisionTensors(d);
      const h = p.heads(t);
      return {
        scores: flatScores(p.forward(t.trunk, t.modules, t.agents, M, agents)).dataSync() as Float32Array,
        lp: chosenLogProb(h, choiceTensors(c, R, M, agents)).dataSync(),
        ent: headsEntropy(h).dataSync(),
        ref: referenceLogProbs(p, tf.tensor2d(obs, [R, OBS_DIM]), tf.tensor2d(mask, [R, NUM_ACTIONS]), agents).arraySync(),
      };
    });
    const probs = new Float32Array(R * NUM_ACTIONS);
    actionProbabilities(scores, d, probs);
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

/** Index of the first float where two packings differ (Object.is: -0 and NaN count), or null. */
function firstDifference(a: DecisionRows, b: DecisionRows): string | null {
  if (a.rows !== b.rows || a.M !== b.M || a.A !== b.A) return 'shape';
  for (const key of ['trunk', 'modules', 'agents', 'kindBias', 'argBias', 'dmBias'] as const) {
    if (a[key].length !== b[key].length) return `${key} length`;
    const k = a[key].findIndex((x, n) => !Object.is(x, b[key][n]));
    if (k >= 0) return `${key}[${k}]: ${a[key][k]} vs ${b[key][k]}`;
  }
  return null;
}

describe('decision rows from shared-block observations', () => {
  for (const { family, structure, agents, islands } of OBSERVATION_CASES) {
    it(`are packDecisions' rows float for float, every minute and for a picked batch (${family}, ${structure}, ${agents} agents)`, () => {
      const env = createStructure({ structure, budget: 40, islands: islands ?? 1 }, agents).createEnv(5);
      const { B, N } = env;
      const R = B * N;
      const tasks = Array.from({ length: B }, (_, b) => generateTask(family, 70 + b));
      const tmax = 30;
      const dense = new Float32Array(tmax * R * OBS_DIM);
      const mask = new Float32Array(tmax * R * NUM_ACTIONS);
      const store = new SharedObservations(tmax * B, N);
      let M = 1;
      for (let b = 0; b < B; b++) M = Math.max(M, tasks[b].modules);
      const minutes = playMixedEpisode(env, tasks, tmax, (t) => {
        const obs = dense.subarray(t * R * OBS_DIM, (t + 1) * R * OBS_DIM);
        const m = mask.subarray(t * R * NUM_ACTIONS, (t + 1) * R * NUM_ACTIONS);
        encodeObservations(env, obs);
        encodeMasks(env, m);
        encodeSharedObservations(env, store, t * B);
        // As the actor packs the minute.
        const diff = firstDifference(packDecisions(obs, m, R, M, N), packSharedDecisions(store.view(t * B, B), m, R, M, N));
        expect(diff, `minute ${t}`).toBeNull();
      });
      expect(minutes).toBeGreaterThan(5);
      // As the trainer packs the batch: a subset of the rows in any order (repeats too), and the values' trunk (M = 1).
      const rng = new Rng(minutes, 2);
      const pick = Int32Array.from({ length: 3 * R }, () => Math.floor(rng.next() * minutes * R));
      const rows = minutes * R;
      for (const [m, a, p] of [
        [M, N, pick],
        [1, N, null],
        [MAX_MODULES, MAX_AGENTS, pick],
        [Math.max(1, M - 2), Math.max(1, N - 2), pick],
      ] as const) {
        const count = p ? p.length : rows;
        const diff = firstDifference(packDecisions(dense, mask, count, m, a, p), packObservations(store, mask, count, m, a, p));
        expect(diff, `M ${m}, A ${a}, ${p ? 'picked' : 'all'}`).toBeNull();
      }
    });
  }
});
