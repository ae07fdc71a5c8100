import { A_DM, A_IDLE, A_POST } from './actions';
import { HUB, mayDm, mayPost } from './channels';
import type { SprintEnv } from './env';

/**
 * Rewrites the scripted organisations' actions so that they keep to each rollout's channel policy
 * (sim/channels.ts) and make no attempts: a DM the policy does not allow becomes a post where the
 * agent may post, else a DM to the hub where it may send one, else an idle minute; a post it does
 * not allow becomes a DM to the hub, else an idle minute. Under `open` nothing changes.
 */
export function obeyChannels(env: SprintEnv, out: Int32Array): void {
  const { B, N } = env;
  for (let b = 0; b < B; b++) {
    const p = env.channel[b];
    if (p === 0) continue;
    for (let i = 0; i < N; i++) {
      const ai = b * N + i;
      const a = out[ai];
      if (a >= A_DM && a < A_POST) {
        const j = a - A_DM;
        if (j === i || j >= N || mayDm(p, i, j)) continue;
        out[ai] = mayPost(p, i) ? A_POST : hubOr(p, i, N);
      } else if (a === A_POST && !mayPost(p, i)) {
        out[ai] = hubOr(p, i, N);
      }
    }
  }
}

/** A DM from i to the hub if the policy allows it, else an idle minute. */
function hubOr(p: number, i: number, N: number): number {
  return i !== HUB && HUB < N && mayDm(p, i, HUB) ? A_DM + HUB : A_IDLE;
}
