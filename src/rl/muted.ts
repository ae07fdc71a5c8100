import { A_DM, A_POST, A_READ, NUM_ACTIONS } from '../sim/actions';
import type { SprintEnv } from '../sim/env';
import { encodeMasks } from '../sim/observe';
import { encodeSharedObservations, SharedObservations } from '../sim/observeShared';
import { MAX_AGENTS } from '../sim/task';
import { PolicyActor } from './actor';

/**
 * A policy with its talk taken away: direct messages, posts and board reads are masked out, and the
 * policy picks among its remaining actions (work, claim, idle) with its own preferences. Comparing
 * it with the same policy unmuted measures what the messages are worth.
 */
export class MutedActor extends PolicyActor {
  private obsBuf = new SharedObservations(0, 1);
  private maskBuf = new Float32Array(0);

  override reset(env: SprintEnv): void {
    super.reset(env);
    const R = env.B * env.N;
    if (this.obsBuf.slots !== env.B || this.obsBuf.N !== env.N) {
      this.obsBuf = new SharedObservations(env.B, env.N);
      this.maskBuf = new Float32Array(R * NUM_ACTIONS);
    }
  }

  override async act(env: SprintEnv, out: Int32Array): Promise<void> {
    encodeSharedObservations(env, this.obsBuf);
    encodeMasks(env, this.maskBuf);
    const R = env.B * env.N;
    for (let r = 0; r < R; r++) {
      const base = r * NUM_ACTIONS;
      this.maskBuf.fill(0, base + A_DM, base + A_DM + MAX_AGENTS);
      this.maskBuf[base + A_POST] = 0;
      this.maskBuf[base + A_READ] = 0;
    }
    await this.choose(env, this.obsBuf, this.maskBuf, out);
  }
}
