import { A_IDLE } from './actions';
import { popcount, type SprintEnv } from './env';
import { AGENT_DIM, AGENTS_OFFSET, G_MINUTES_LEFT, GLOBAL_DIM, MODULE_DIM, MODULES_OFFSET, OBS_DIM } from './observe';
import { MAX_AGENTS, MAX_MODULES } from './task';

const MM = MAX_MODULES;

const shared = new Float32Array(MM * MODULE_DIM);
const workersLast = new Int32Array(MM);
const claimedDeps = new Int32Array(MAX_AGENTS);

/**
 * `encodeObservations` written the plain way, feature by feature for every agent and module: how the
 * encoder worked until 2026-12-01. Kept as the reference the fast encoder is tested against, and timed
 * beside it by `npm run bench`.
 */
export function encodeObservationsReference(env: SprintEnv, out: Float32Array, offset = 0): void {
  const { B, N } = env;
  const tmax = env.tmax;
  const t = env.t;
  for (let b = 0; b < B; b++) {
    const o = b * MM;
    const ao = b * N;
    const M = env.M[b];
    const done = env.done[b];
    const needed = env.needed[b];
    const board = env.board[b];
    const ret = env.returnOf(b);
    shared.fill(0);
    workersLast.fill(0);
    claimedDeps.fill(0);
    for (let i = 0; i < N; i++) {
      const last = env.lastAction[ao + i];
      if (last < MM) workersLast[last]++;
    }
    for (let k = 0; k < M; k++) {
      const claimer = env.claim[o + k];
      const d = env.dep[o + k];
      if (claimer >= 0 && d >= 0 && ((done >>> k) & 1) === 0) claimedDeps[claimer] |= 1 << d;
    }
    for (let k = 0, mb = 0; k < M; k++, mb += MODULE_DIM) {
      const ok = o + k;
      const isDone = (done >>> k) & 1;
      const luck = env.luck[ok];
      shared[mb] = 1;
      shared[mb + 1] = isDone;
      shared[mb + 2] = isDone ? 0 : luck > 0 ? 1 / luck / 10 : env.left[ok] / 10;
      shared[mb + 3] = !isDone && env.left[ok] < env.work[ok] ? 1 : 0;
      shared[mb + 10] = env.tests[ok] / 5;
      shared[mb + 11] = luck;
      const d = env.dep[ok];
      if (d >= 0 && !isDone) shared[d * MODULE_DIM + 9] += 0.25;
    }
    for (let i = 0; i < N; i++) {
      const ai = ao + i;
      const base = offset + ai * OBS_DIM;
      const known = env.known[ai];
      const last = env.lastAction[ai];
      out.fill(0, base, base + GLOBAL_DIM);
      out[base + i] = 1;
      out[base + 16] = N / 16;
      out[base + 17] = t / tmax;
      out[base + G_MINUTES_LEFT] = env.minutesLeft(b) / 30;
      out[base + 19] = ret;
      out[base + 20] = env.gotNew[ai];
      out.set(shared, base + MODULES_OFFSET);
      let blockedDeps = 0;
      let workable = 0;
      let mb = base + MODULES_OFFSET;
      for (let k = 0; k < M; k++, mb += MODULE_DIM) {
        const ok = o + k;
        const isDone = (done >>> k) & 1;
        const d = env.dep[ok];
        if (!isDone && d >= 0 && ((known >>> d) & 1) === 0) {
          blockedDeps |= 1 << d;
          out[mb + 4] = 1;
        } else if (!isDone) workable++;
        const claimer = env.claim[ok];
        out[mb + 5] = (known >>> k) & 1;
        if (claimer >= 0) out[mb + (claimer === i ? 6 : 7)] = 1;
        if (last === k) out[mb + 8] = 1;
        if (workersLast[k] > (last === k ? 1 : 0)) out[mb + 12] = 1;
      }
      out[base + 21] = (board & ~known & blockedDeps) !== 0 ? 1 : 0;
      out[base + 22] = M > 0 ? workable / M : 0;
      out[base + 23] = env.lastWasted[ai];
      const mine = known & needed;
      let ab = base + AGENTS_OFFSET;
      for (let j = 0; j < N; j++, ab += AGENT_DIM) {
        if (j === i || !env.active[ao + j]) {
          out[ab] = out[ab + 1] = out[ab + 2] = out[ab + 3] = 0;
          continue;
        }
        const gives = mine & ~env.known[ao + j];
        out[ab] = 1;
        out[ab + 1] = gives === 0 ? 0 : popcount(gives) / 4;
        out[ab + 2] = (gives & claimedDeps[j]) !== 0 ? 1 : 0;
        out[ab + 3] = env.lastAction[ao + j] === A_IDLE || env.lastWasted[ao + j] ? 1 : 0;
      }
      out.fill(0, ab, base + OBS_DIM);
    }
  }
  env.rules?.observe?.(env, out, offset);
}
