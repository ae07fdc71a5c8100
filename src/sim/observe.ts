import { A_CLAIM, A_DM, A_IDLE, A_POST, A_READ, NUM_ACTIONS } from './actions';
import { popcount, type SprintEnv } from './env';
import { MAX_AGENTS, MAX_MODULES } from './task';

/**
 * The fixed-size observation of one agent, three blocks:
 * - global [GLOBAL_DIM]: own id (one-hot), team size, clock and deadline, progress, what arrived;
 * - one row per module [MAX_MODULES x MODULE_DIM]: its state as this agent sees it;
 * - one row per other agent [MAX_AGENTS x AGENT_DIM]: whether a DM to it could unblock it.
 * Rows of missing modules and agents are zero.
 */
export const GLOBAL_DIM = 24;
export const MODULE_DIM = 13;
export const AGENT_DIM = 4;
export const MODULES_OFFSET = GLOBAL_DIM;
export const AGENTS_OFFSET = GLOBAL_DIM + MAX_MODULES * MODULE_DIM;
export const OBS_DIM = AGENTS_OFFSET + MAX_AGENTS * AGENT_DIM;
/** Index of the 'minutes left/30' feature in the global block. */
export const G_MINUTES_LEFT = 18;

/** Names of the features, for docs and inspection. */
export const GLOBAL_FEATURES = [
  ...Array.from({ length: MAX_AGENTS }, (_, i) => `id=${i}`),
  'agents/16',
  't/tmax',
  'minutes left/30',
  'tests passing',
  'got new interface last minute',
  'board holds an interface that unblocks me',
  'share of modules I can work on',
  'last minute was wasted',
];
export const MODULE_FEATURES = [
  'exists',
  'done',
  'work left/10',
  'in progress',
  'blocked for me',
  'I know its interface',
  'claimed by me',
  'claimed by another',
  'I worked on it last minute',
  'unfinished dependents/4',
  'tests/5',
  'luck per minute',
  'another agent worked on it last minute',
];
export const AGENT_FEATURES = ['can receive a DM', 'I know interfaces it needs/4', 'it claimed a module I can unblock', 'it was idle or wasted its minute'];

const MM = MAX_MODULES;

const shared = new Float32Array(MM * MODULE_DIM);
const workersLast = new Int32Array(MM);
const claimedDeps = new Int32Array(MAX_AGENTS);

/**
 * Writes every agent's observation, rollout-major, into `out` from `offset` (B * N * OBS_DIM floats).
 * The module rows every agent of a rollout shares are built once per rollout and copied.
 */
export function encodeObservations(env: SprintEnv, out: Float32Array, offset = 0): void {
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
      out[base + G_MINUTES_LEFT] = (tmax - t) / 30;
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

/**
 * Writes the legal-action mask (1 = allowed) of every agent into `out` from `offset`
 * (B * N * NUM_ACTIONS floats). Missing or finished modules, claims on claimed modules, DMs to
 * oneself or to inactive agents are masked; blocked work is allowed (it wastes the minute).
 * Inactive agents and agents of finished rollouts may only idle. A structure's rules may adjust
 * the mask of the others (e.g. the CEO's hires).
 */
export function encodeMasks(env: SprintEnv, out: Float32Array, offset = 0): void {
  const { B, N } = env;
  for (let b = 0; b < B; b++) {
    const o = b * MM;
    const M = env.M[b];
    const done = env.done[b];
    const over = env.finished[b] === 1;
    for (let i = 0; i < N; i++) {
      const ai = b * N + i;
      const base = offset + ai * NUM_ACTIONS;
      out.fill(0, base, base + NUM_ACTIONS);
      out[base + A_IDLE] = 1;
      if (over || !env.active[ai]) continue;
      for (let k = 0; k < M; k++) {
        if ((done >>> k) & 1) continue;
        out[base + k] = 1;
        if (env.claim[o + k] === -1) out[base + A_CLAIM + k] = 1;
      }
      for (let j = 0; j < N; j++) if (j !== i && env.active[b * N + j]) out[base + A_DM + j] = 1;
      out[base + A_POST] = 1;
      out[base + A_READ] = 1;
      env.rules?.mask?.(env, b, i, out, base);
    }
  }
}
