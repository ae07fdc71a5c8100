import { A_CLAIM, A_DM, A_IDLE, A_POST, A_READ, NUM_ACTIONS } from './actions';
import { lowBit, popcount, type SprintEnv } from './env';
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

/** The observation every agent of the rollout shares, written once per rollout and copied per agent. */
const template = new Float32Array(OBS_DIM);
const workersLast = new Int32Array(MM);
const claimedDeps = new Int32Array(MAX_AGENTS);
const claimsOf = new Int32Array(MAX_AGENTS);
/** Per interface d: bitmask of the unfinished modules that need it. */
const dependents = new Int32Array(MM);

/**
 * Writes every agent's observation, rollout-major, into `out` from `offset` (B * N * OBS_DIM floats).
 * Everything the agents of a rollout share (clock, progress, the module rows' common features, who
 * worked on what, the other agents' idle flags) goes into one template row per rollout; each agent
 * copies it in one block and then sets only what is its own, walking the bits of its knowledge and
 * claims instead of every module. The same numbers as `encodeObservationsReference`
 * (observeReference.ts, the plain per-feature loop), which the tests and `npm run bench` compare.
 */
export function encodeObservations(env: SprintEnv, out: Float32Array, offset = 0): void {
  const { B, N } = env;
  const tmax = env.tmax;
  const t = env.t;
  const T = template;
  for (let b = 0; b < B; b++) {
    const o = b * MM;
    const ao = b * N;
    const M = env.M[b];
    const done = env.done[b];
    const needed = env.needed[b];
    const board = env.board[b];
    const all = M >= 32 ? -1 : (1 << M) - 1;
    const open = all & ~done;
    T.fill(0);
    workersLast.fill(0);
    claimedDeps.fill(0, 0, N);
    claimsOf.fill(0, 0, N);
    dependents.fill(0, 0, M);
    for (let i = 0; i < N; i++) {
      const last = env.lastAction[ao + i];
      if (last < MM) workersLast[last]++;
    }
    T[16] = N / 16;
    T[17] = t / tmax;
    T[G_MINUTES_LEFT] = env.minutesLeft(b) / 30;
    T[19] = env.returnOf(b);
    let claimed = 0;
    for (let k = 0, mb = MODULES_OFFSET; k < M; k++, mb += MODULE_DIM) {
      const ok = o + k;
      const isDone = (done >>> k) & 1;
      const luck = env.luck[ok];
      const d = env.dep[ok];
      const claimer = env.claim[ok];
      T[mb] = 1;
      T[mb + 1] = isDone;
      T[mb + 2] = isDone ? 0 : luck > 0 ? 1 / luck / 10 : env.left[ok] / 10;
      T[mb + 3] = !isDone && env.left[ok] < env.work[ok] ? 1 : 0;
      T[mb + 10] = env.tests[ok] / 5;
      T[mb + 11] = luck;
      if (workersLast[k] > 0) T[mb + 12] = 1;
      if (claimer >= 0) {
        T[mb + 7] = 1;
        claimed |= 1 << k;
        claimsOf[claimer] |= 1 << k;
        if (d >= 0 && !isDone) claimedDeps[claimer] |= 1 << d;
      }
      if (d >= 0 && !isDone) {
        T[MODULES_OFFSET + d * MODULE_DIM + 9] += 0.25;
        dependents[d] |= 1 << k;
      }
    }
    let hasDependents = 0;
    for (let d = 0; d < M; d++) if (dependents[d] !== 0) hasDependents |= 1 << d;
    for (let j = 0, ab = AGENTS_OFFSET; j < N; j++, ab += AGENT_DIM) {
      if (!env.active[ao + j]) continue;
      T[ab] = 1;
      T[ab + 3] = env.lastAction[ao + j] === A_IDLE || env.lastWasted[ao + j] ? 1 : 0;
    }
    for (let i = 0; i < N; i++) {
      const ai = ao + i;
      const base = offset + ai * OBS_DIM;
      const known = env.known[ai];
      const last = env.lastAction[ai];
      out.set(T, base);
      out[base + i] = 1;
      out[base + 20] = env.gotNew[ai];
      out[base + 23] = env.lastWasted[ai];
      const mods = base + MODULES_OFFSET;
      // Interfaces I lack that unfinished modules need: those modules are blocked for me.
      const lacking = hasDependents & ~known;
      let blocked = 0;
      for (let x = lacking; x !== 0; x &= x - 1) blocked |= dependents[lowBit(x)];
      for (let x = blocked; x !== 0; x &= x - 1) out[mods + lowBit(x) * MODULE_DIM + 4] = 1;
      for (let x = known & all; x !== 0; x &= x - 1) out[mods + lowBit(x) * MODULE_DIM + 5] = 1;
      for (let x = claimsOf[i] & claimed; x !== 0; x &= x - 1) {
        const mb = mods + lowBit(x) * MODULE_DIM;
        out[mb + 6] = 1;
        out[mb + 7] = 0;
      }
      if (last < M) {
        out[mods + last * MODULE_DIM + 8] = 1;
        if (workersLast[last] === 1) out[mods + last * MODULE_DIM + 12] = 0;
      }
      out[base + 21] = (board & ~known & lacking) !== 0 ? 1 : 0;
      out[base + 22] = M > 0 ? (popcount(open) - popcount(blocked)) / M : 0;
      const ab = base + AGENTS_OFFSET + i * AGENT_DIM;
      out[ab] = out[ab + 1] = out[ab + 2] = out[ab + 3] = 0;
      const mine = known & needed;
      if (mine === 0) continue;
      for (let j = 0, jb = base + AGENTS_OFFSET; j < N; j++, jb += AGENT_DIM) {
        if (j === i || !env.active[ao + j]) continue;
        const gives = mine & ~env.known[ao + j];
        if (gives === 0) continue;
        out[jb + 1] = popcount(gives) / 4;
        if ((gives & claimedDeps[j]) !== 0) out[jb + 2] = 1;
      }
    }
  }
  env.rules?.observe?.(env, out, offset);
}

/**
 * Writes the legal-action mask (1 = allowed) of every agent into `out` from `offset`
 * (B * N * NUM_ACTIONS floats). Missing or finished modules, claims on claimed modules, DMs to
 * oneself (unless the rollout has an unofficial board) or to inactive agents are masked; the
 * channel policy masks nothing (a message outside it is an attempt); blocked work is allowed (it wastes the minute).
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
      // With an unofficial board, a DM to oneself posts on it (sim/channels.ts).
      if (env.side[b] !== 0) out[base + A_DM + i] = 1;
      out[base + A_POST] = 1;
      out[base + A_READ] = 1;
      env.rules?.mask?.(env, b, i, out, base);
    }
  }
}
