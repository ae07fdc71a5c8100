import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { A_IDLE } from '../sim/actions';
import { SprintEnv } from '../sim/env';
import type { ActionSource } from '../sim/actionSource';
import { generateTask } from '../sim/task';
import { PolicyActor } from './actor';
import { learnerPlays, learnerShare, MAX_LEARNER_SHARE } from './imitation';
import { SwarmPolicy } from './policy';
import { BatchBuffers, collect } from './rollout';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('the imitation schedule (DAgger)', () => {
  it('starts with the teacher alone and hands the learner a growing share, up to the cap', () => {
    expect(learnerShare(0, 100)).toBe(0);
    expect(learnerShare(99, 100)).toBeCloseTo(MAX_LEARNER_SHARE);
    const shares = Array.from({ length: 100 }, (_, u) => learnerShare(u, 100));
    for (let u = 1; u < 100; u++) expect(shares[u]).toBeGreaterThanOrEqual(shares[u - 1]);
    expect(learnerShare(0, 1)).toBe(0);
  });

  it("marks the same first rollouts of every group as the learner's", () => {
    const plays = learnerPlays(99, 100, 3, 8);
    expect(Array.from(plays)).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]);
    expect(Array.from(learnerPlays(0, 100, 2, 4))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('collect with a teacher', () => {
  // A teacher that always idles: its labels are easy to tell from what a random policy plays.
  const idler: ActionSource = { name: 'idler', act: (_env, out) => void out.fill(A_IDLE) };
  const tasks = [generateTask('coupled', 1), generateTask('coupled', 2)];

  async function run(plays: Uint8Array) {
    const env = new SprintEnv(2, 4);
    const policy = SwarmPolicy.create({ hidden: 16, scorer: 8 }, 3);
    const batch = await collect(env, tasks, 5, 12, new PolicyActor(policy, 3), new BatchBuffers(), { teacher: idler, learnerPlays: plays });
    const acted = [0, 1].map((b) => {
      const m = batch.stats[b].metrics;
      return batch.T * 4 - m.idle; // agent-minutes spent on anything but idling
    });
    policy.dispose();
    return { batch, acted };
  }

  it("records the teacher's labels in every rollout, and plays the learner's actions only where marked", async () => {
    const { batch, acted } = await run(Uint8Array.of(1, 0));
    for (let r = 0; r < batch.T * batch.R; r++) expect(batch.actions[r]).toBe(A_IDLE);
    expect(acted[0]).toBeGreaterThan(0); // the learner played rollout 0: it did something besides idling
    expect(acted[1]).toBe(0); // the teacher played rollout 1
    for (let r = 0; r < batch.T * batch.R; r++) expect(batch.logp[r]).toBe(0);
  });

  it('lets the teacher play everything when no rollout is marked', async () => {
    const { acted } = await run(Uint8Array.of(0, 0));
    expect(acted).toEqual([0, 0]);
  });
});
