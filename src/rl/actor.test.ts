import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { A_IDLE, A_POST, NUM_ACTIONS } from '../sim/actions';
import { SprintEnv } from '../sim/env';
import { encodeMasks } from '../sim/observe';
import { encodeSharedObservations, SharedObservations } from '../sim/observeShared';
import { generateTask } from '../sim/task';
import { PolicyActor } from './actor';
import { SwarmPolicy } from './policy';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** One minute of a 2-rollout, 3-agent episode: its observations and masks. */
function minute() {
  const env = new SprintEnv(2, 3);
  env.reset([generateTask('long-coupled', 1), generateTask('long-coupled', 2)], 3, 20);
  const obs = new SharedObservations(2, 3);
  encodeSharedObservations(env, obs);
  const mask = new Float32Array(6 * NUM_ACTIONS);
  encodeMasks(env, mask);
  return { env, obs, mask };
}

async function choose(actor: PolicyActor, env: SprintEnv, obs: SharedObservations, mask: Float32Array) {
  const out = new Int32Array(6);
  const logp = new Float32Array(6);
  actor.reset(env);
  await actor.choose(env, obs, mask, out, logp);
  return { out: Array.from(out), logp: Array.from(logp) };
}

describe('PolicyActor', () => {
  it('plays forced moves without the policy, and the decisions do not depend on which rows were forced', async () => {
    const policy = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 5);
    const { env, obs, mask } = minute();
    for (let r = 0; r < 6; r++) expect(mask.subarray(r * NUM_ACTIONS, (r + 1) * NUM_ACTIONS).reduce((s, x) => s + x, 0)).toBeGreaterThan(1);
    const forced = mask.slice();
    forced.fill(0, 1 * NUM_ACTIONS, 2 * NUM_ACTIONS);
    forced[1 * NUM_ACTIONS + A_IDLE] = 1; // row 1 may only idle
    forced.fill(0, 4 * NUM_ACTIONS, 5 * NUM_ACTIONS);
    forced[4 * NUM_ACTIONS + A_POST] = 1; // row 4 may only post
    for (const greedy of [false, true]) {
      const actor = new PolicyActor(policy, 11);
      actor.greedy = greedy;
      const all = await choose(actor, env, obs, mask);
      const some = await choose(actor, env, obs, forced);
      expect(some.out[1]).toBe(A_IDLE);
      expect(some.out[4]).toBe(A_POST);
      expect([some.logp[1], some.logp[4]]).toEqual([0, 0]);
      for (const r of [0, 2, 3, 5]) {
        expect(some.out[r], `row ${r}`).toBe(all.out[r]);
        expect(some.logp[r], `row ${r}`).toBe(all.logp[r]);
        expect(some.logp[r]).toBeLessThan(0);
      }
    }
    policy.dispose();
  });
});
