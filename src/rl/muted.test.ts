import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { A_DM, A_POST, A_READ, NUM_ACTIONS } from '../sim/actions';
import { SprintEnv } from '../sim/env';
import { encodeMasks } from '../sim/observe';
import type { SharedObservations } from '../sim/observeShared';
import { generateTask } from '../sim/task';
import { handTask } from '../sim/testing';
import { evaluatePolicy, talkValue } from './compare';
import { MutedActor } from './muted';
import { SwarmPolicy } from './policy';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const isMessage = (a: number) => (a >= A_DM && a < A_POST) || a === A_POST || a === A_READ;

/** A muted actor that records the masks it chooses with. */
class Recording extends MutedActor {
  masks: Float32Array[] = [];
  override async choose(env: SprintEnv, obs: Float32Array | SharedObservations, mask: Float32Array, out: Int32Array): Promise<void> {
    this.masks.push(mask.slice());
    await super.choose(env, obs, mask, out);
  }
}

describe('the muted swarm', () => {
  it('masks exactly the message actions (DMs, posts, reads) and nothing else', async () => {
    const p = SwarmPolicy.create({ hidden: 8, scorer: 4 }, 2);
    const env = new SprintEnv(2, 4);
    env.reset([handTask([2, 3], [1, 4], [-1, 0], [], true), generateTask('long-coupled', 5)], 1, 6);
    const actor = new Recording(p, 1);
    actor.reset(env);
    const out = new Int32Array(8);
    const full = new Float32Array(8 * NUM_ACTIONS);
    while (!env.isOver()) {
      encodeMasks(env, full);
      await actor.act(env, out);
      const muted = actor.masks[actor.masks.length - 1];
      for (let i = 0; i < full.length; i++) expect(muted[i], `entry ${i}`).toBe(isMessage(i % NUM_ACTIONS) ? 0 : full[i]);
      for (const a of out) expect(isMessage(a)).toBe(false);
      env.step(out);
    }
    expect(actor.masks.length).toBe(6);
    p.dispose();
  });

  it('talkValue plays the same policy talking and muted on the same tasks and reports the difference', async () => {
    const p = SwarmPolicy.create({ hidden: 8, scorer: 4 }, 3);
    const opts = { family: 'coupled', agents: 3, tmax: 30, tasks: 3, seed: 4 } as const;
    const v = await talkValue(p, opts);
    const talking = await evaluatePolicy(p, 'trained swarm', opts);
    const muted = await evaluatePolicy(p, 'trained swarm, muted', { ...opts, muted: true });
    // The muted swarm sends nothing on the tasks where the talking one (untrained) talks.
    expect(muted.messages).toBe(0);
    expect(muted.handoffs).toBe(0);
    expect(talking.messages).toBeGreaterThan(0);
    expect(v).toEqual({
      ret: talking.ret,
      muted: muted.ret,
      gain: talking.ret - muted.ret,
      neededShare: talking.neededShare,
      messages: talking.messages,
      useful: talking.useful,
      duplicate: talking.duplicate,
      scripted: expect.any(Number),
    });
    for (const share of [v.ret, v.muted, v.neededShare, v.scripted]) {
      expect(share).toBeGreaterThanOrEqual(0);
      expect(share).toBeLessThanOrEqual(1);
    }
    // Muting changes the play: the untrained swarm's messages take minutes from work, so here the
    // muted swarm passes more tests and talk is worth less than nothing.
    expect(v.ret).toBeGreaterThan(0);
    expect(v.muted).toBeGreaterThan(v.ret);
    expect(v.gain).toBeLessThan(0);
    expect(await talkValue(p, opts)).toEqual(v);
    p.dispose();
  });
});
