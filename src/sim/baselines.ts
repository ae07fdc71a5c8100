import { A_DM, A_IDLE, A_POST, A_READ, claim, NUM_ACTIONS, work } from './actions';
import type { SprintEnv } from './env';
import { encodeMasks } from './observe';
import type { ActionSource } from './actionSource';
import { nextFloat, mixSeed } from './rng';
import { MAX_MODULES } from './task';
import { obeyChannels } from './obeyChannels';

const MM = MAX_MODULES;

/** Expected minutes of work module k of rollout b still needs. */
function expectedLeft(env: SprintEnv, b: number, k: number): number {
  const ok = b * MM + k;
  return env.luck[ok] > 0 ? 1 / env.luck[ok] : env.left[ok];
}

function unfinishedDependents(env: SprintEnv, b: number, k: number): number {
  let n = 0;
  for (let m = 0; m < env.M[b]; m++) if (env.dep[b * MM + m] === k && ((env.done[b] >>> m) & 1) === 0) n++;
  return n;
}

/**
 * The agents agent i could unblock in rollout b: claimers of unfinished modules whose prerequisite
 * interface i knows and they lack. How many (each agent once), and the first of them (-1: none).
 */
export function handoffRecipients(env: SprintEnv, b: number, i: number): { first: number; count: number } {
  const o = b * MAX_MODULES;
  const done = env.done[b];
  const known = env.known[b * env.N + i];
  let first = -1;
  let count = 0;
  let seen = 0;
  for (let m = 0; m < env.M[b]; m++) {
    const d = env.dep[o + m];
    const j = env.claim[o + m];
    if (d < 0 || j < 0 || j === i || ((done >>> m) & 1) === 1) continue;
    if (((known >>> d) & 1) === 0 || ((env.known[b * env.N + j] >>> d) & 1) === 1 || (seen >>> j) & 1) continue;
    seen |= 1 << j;
    count++;
    if (first < 0) first = j;
  }
  return { first, count };
}

function workable(env: SprintEnv, b: number, i: number, k: number): boolean {
  return ((env.done[b] >>> k) & 1) === 0 && !env.blockedFor(b, i, k);
}

/**
 * The single chain: agent 0 does everything in a greedy order (most tests per minute of work
 * left, modules that unblock others first on ties); everybody else stays idle.
 */
export const singleChain: ActionSource = {
  name: 'single chain',
  act(env, out) {
    const { B, N } = env;
    out.fill(A_IDLE);
    for (let b = 0; b < B; b++) {
      if (env.finished[b]) continue;
      const last = env.lastAction[b * N];
      if (last < MM && workable(env, b, 0, last)) {
        out[b * N] = work(last);
        continue;
      }
      let best = -1;
      let bestScore = -Infinity;
      for (let k = 0; k < env.M[b]; k++) {
        if (!workable(env, b, 0, k)) continue;
        const score = env.tests[b * MM + k] / expectedLeft(env, b, k) + 0.5 * unfinishedDependents(env, b, k);
        if (score > bestScore) {
          bestScore = score;
          best = k;
        }
      }
      if (best >= 0) out[b * N] = work(best);
    }
  },
};

/**
 * The scripted organisation: claims on the issue board, handoffs when a dependent module is
 * unblocked. Each minute an agent, in order of priority:
 * 1. hands over an interface it holds that a claimer of an unfinished dependent lacks
 *    (a DM to one or two claimers, a post on the board for three or more);
 * 2. works on its own claimed module if it can;
 * 3. reads the board if it holds an interface it needs;
 * 4. claims the open module with the most unfinished dependents, then the most work (claims are
 *    taken in agent order, so two agents never race for one module);
 * 5. otherwise claims a module blocked on an interface someone is building, or idles.
 */
export const scriptedOrganisation: ActionSource = {
  name: 'scripted organisation',
  act(env, out) {
    const { B, N } = env;
    for (let b = 0; b < B; b++) {
      const o = b * MM;
      const M = env.M[b];
      const done = env.done[b];
      let taken = 0;
      for (let k = 0; k < M; k++) if (env.claim[o + k] >= 0) taken |= 1 << k;
      for (let i = 0; i < N; i++) {
        const ai = b * N + i;
        out[ai] = A_IDLE;
        if (env.finished[b] || !env.active[ai]) continue;
        const known = env.known[ai];
        // 1. Handoffs: claimers of unfinished modules blocked on an interface I know.
        const { first: firstRecipient, count: recipients } = handoffRecipients(env, b, i);
        const boardHas = (env.board[b] & known) === known;
        if (recipients >= 3 && !boardHas) {
          out[ai] = A_POST;
          continue;
        }
        if (recipients > 0 && (recipients < 3 || !boardHas)) {
          out[ai] = A_DM + firstRecipient;
          continue;
        }
        // 2. Own claimed module.
        let mine = -1;
        for (let k = 0; k < M; k++) if (env.claim[o + k] === i && ((done >>> k) & 1) === 0) mine = k;
        if (mine >= 0 && workable(env, b, i, mine)) {
          out[ai] = work(mine);
          continue;
        }
        // 3. The board holds an interface I need.
        const fromBoard = env.board[b] & ~known;
        let needBoard = false;
        for (let k = 0; k < M && fromBoard !== 0; k++) {
          const d = env.dep[o + k];
          if (d >= 0 && ((done >>> k) & 1) === 0 && (fromBoard >>> d) & 1) needBoard = true;
        }
        if (needBoard) {
          out[ai] = A_READ;
          continue;
        }
        if (mine >= 0) continue; // waiting for the interface of my claimed module
        // 4./5. Claim the best open module.
        let best = -1;
        let bestScore = -Infinity;
        for (let k = 0; k < M; k++) {
          if (((done >>> k) & 1) === 1 || ((taken >>> k) & 1) === 1) continue;
          const d = env.dep[o + k];
          const canWork = d < 0 || ((known >>> d) & 1) === 1;
          const depStarted = d >= 0 && ((taken >>> d) & 1) === 1;
          if (!canWork && !depStarted) continue;
          const score = (canWork ? 1000 : 0) + 10 * unfinishedDependents(env, b, k) + expectedLeft(env, b, k);
          if (score > bestScore) {
            bestScore = score;
            best = k;
          }
        }
        if (best >= 0) {
          taken |= 1 << best;
          out[ai] = claim(best);
        }
      }
    }
    obeyChannels(env, out);
  },
};

/** Uniformly random legal actions, from its own seeded stream per rollout. */
export function randomPolicy(seed: number): ActionSource {
  let rng = new Uint32Array(0);
  let mask = new Float32Array(0);
  return {
    name: 'random',
    reset(env) {
      rng = new Uint32Array(env.B);
      for (let b = 0; b < env.B; b++) rng[b] = mixSeed(seed, 7919 + b);
      mask = new Float32Array(env.B * env.N * NUM_ACTIONS);
    },
    act(env, out) {
      encodeMasks(env, mask);
      for (let ai = 0; ai < env.B * env.N; ai++) {
        const base = ai * NUM_ACTIONS;
        let n = 0;
        for (let a = 0; a < NUM_ACTIONS; a++) n += mask[base + a];
        let r = Math.floor(nextFloat(rng, Math.floor(ai / env.N)) * n);
        let pick = A_IDLE;
        for (let a = 0; a < NUM_ACTIONS; a++) {
          if (mask[base + a] === 0) continue;
          if (r-- === 0) {
            pick = a;
            break;
          }
        }
        out[ai] = pick;
      }
    },
  };
}
