import { NUM_ACTIONS } from '../sim/actions';
import type { SprintEnv } from '../sim/env';
import type { EpisodeStats } from '../sim/episodeStats';
import { collectStats } from '../sim/evaluate';
import type { SimEvent } from '../sim/events';
import { encodeMasks, encodeObservations, OBS_DIM } from '../sim/observe';
import { encodeSharedObservations, SharedObservations } from '../sim/observeShared';
import type { ActionSource } from '../sim/actionSource';
import type { Task } from '../sim/task';
import type { PolicyActor } from './actor';
import { isDecision } from './decisions';

/** Everything one update learns from: every agent's decisions in B rollouts, minute by minute. */
export interface Batch {
  B: number;
  N: number;
  /** Rows per minute: B * N, rollout-major. */
  R: number;
  /** Minutes played. */
  T: number;
  tmax: number;
  /**
   * Every minute's observations: shared blocks (rollout slot t * B + b, agent row t * R + r; see
   * sim/observeShared.ts), or dense rows [T * R * OBS_DIM] when the buffers were made `dense`.
   * `packObservations` (decisions.ts) packs either; `expandObservations` makes dense rows of the first.
   */
  obs: Float32Array | SharedObservations;
  mask: Float32Array; // [T * R * NUM_ACTIONS]
  actions: Int32Array; // [T * R]
  logp: Float32Array; // [T * R] log-probability under the acting policy
  /** 1 where the decision counts for learning: rollout still running, agent had a real choice. */
  live: Uint8Array; // [T * R]
  /** Anytime return at the cut, per rollout. */
  returns: Float32Array;
  /** Minute all tests passed, else the deadline, per rollout. */
  tEnd: Float32Array;
  /** Share of the rollout's tests each agent's own work passed ([B * N]): the individual-reward ablation. */
  credit: Float32Array;
  /** Anytime return after every minute, [B * (tmax + 1)]. */
  history: Float32Array;
  stats: EpisodeStats[];
  /** Event log of the showcase rollout (rollout 0). */
  events: SimEvent[];
}

/** How a structure changes rollout collection (all optional; none for the flat default). */
export interface CollectHooks {
  /** Agents that follow a frozen policy (the orchestrator's workers): their actions are overwritten after the learner chose. */
  workers?: {
    reset(env: SprintEnv): void;
    act(env: SprintEnv, obs: Float32Array | SharedObservations, mask: Float32Array, out: Int32Array): void | Promise<void>;
  };
  /** Per agent index within a rollout: 1 if its decisions are learned from (default: every agent). */
  learners?: Uint8Array;
  /** Consecutive rollouts logged from rollout 0 (the islands of the showcase rollout; default 1). */
  logCount?: number;
}

/**
 * Imitation of a teacher (the imitation prior): the teacher labels every decision; in the rollouts
 * marked in `learnerPlays` the learner's own sampled actions are played instead (DAgger: the
 * teacher's labels on the states the learner reaches, not only on the teacher's own).
 */
export interface Imitation {
  teacher: ActionSource;
  /** Per rollout: 1 if the learner plays it (the teacher only labels), 0 if the teacher plays. */
  learnerPlays?: Uint8Array;
}

/**
 * Reusable storage for batches, grown when a longer deadline needs more room. Observations are kept
 * as shared blocks; `dense` keeps a dense row per agent instead (the layout before the shared
 * blocks, kept so the tests can check that both train alike).
 */
export class BatchBuffers {
  obs = new Float32Array(0);
  shared = new SharedObservations(0, 1);
  mask = new Float32Array(0);
  actions = new Int32Array(0);
  logp = new Float32Array(0);
  live = new Uint8Array(0);

  private agents = 0;

  constructor(readonly dense = false) {}

  /** Room for `minutes` minutes of `rollouts` x `agents` decisions. */
  ensure(minutes: number, rollouts: number, agents: number): void {
    const rows = minutes * rollouts * agents;
    if (this.actions.length >= rows && this.agents === agents) return;
    this.agents = agents;
    if (this.dense) this.obs = new Float32Array(rows * OBS_DIM);
    else this.shared = new SharedObservations(minutes * rollouts, agents);
    this.mask = new Float32Array(rows * NUM_ACTIONS);
    this.actions = new Int32Array(rows);
    this.logp = new Float32Array(rows);
    this.live = new Uint8Array(rows);
  }
}

/**
 * Plays one episode of `tasks` (one rollout each) up to `tmax` and records every decision.
 * The actor picks the actions, unless `imitation` is given: then the recorded actions are the
 * teacher's labels, the played ones the teacher's or (in the rollouts it marks) the learner's, and
 * the recorded log-probabilities are zero. `streams` is passed to `env.reset`. `hooks` adapt the
 * collection to an organisation structure.
 */
export async function collect(
  env: SprintEnv,
  tasks: readonly Task[],
  seed: number,
  tmax: number,
  actor: PolicyActor,
  buffers: BatchBuffers,
  imitation?: Imitation,
  streams?: ArrayLike<number>,
  hooks?: CollectHooks,
): Promise<Batch> {
  const { B, N } = env;
  const R = B * N;
  const learners = hooks?.learners;
  buffers.ensure(tmax, B, N);
  env.reset(tasks, seed, tmax, streams);
  env.logRollout = 0;
  env.logCount = hooks?.logCount ?? 1;
  actor.reset(env);
  const teacher = imitation?.teacher;
  teacher?.reset?.(env);
  hooks?.workers?.reset(env);
  const learnerPlays = imitation?.learnerPlays;
  const mixed = learnerPlays !== undefined && learnerPlays.some((x) => x === 1);
  const actions = new Int32Array(R);
  const played = mixed ? new Int32Array(R) : actions;
  let T = 0;
  while (!env.isOver()) {
    const off = T * R;
    let obs: Float32Array | SharedObservations;
    if (buffers.dense) {
      obs = buffers.obs.subarray(off * OBS_DIM, (off + R) * OBS_DIM);
      encodeObservations(env, obs);
    } else {
      encodeSharedObservations(env, buffers.shared, T * B);
      obs = buffers.shared.view(T * B, B);
    }
    const mask = buffers.mask.subarray(off * NUM_ACTIONS, (off + R) * NUM_ACTIONS);
    encodeMasks(env, mask);
    for (let r = 0; r < R; r++) {
      buffers.live[off + r] = isDecision(mask, r) && (!learners || learners[r % N] === 1) ? 1 : 0;
    }
    if (teacher) {
      if (mixed) await actor.choose(env, obs, mask, played);
      await teacher.act(env, actions);
      if (mixed) for (let b = 0; b < B; b++) if (learnerPlays[b] === 0) played.set(actions.subarray(b * N, (b + 1) * N), b * N);
      buffers.logp.fill(0, off, off + R);
    } else {
      await actor.choose(env, obs, mask, actions, buffers.logp.subarray(off, off + R));
    }
    if (hooks?.workers) await hooks.workers.act(env, obs, mask, played);
    buffers.actions.set(actions, off);
    env.step(played);
    T++;
  }
  const credit = new Float32Array(R);
  for (let b = 0; b < B; b++) for (let i = 0; i < N; i++) credit[b * N + i] = env.credit[b * N + i] / env.totalTests[b];
  const returns = new Float32Array(B);
  for (let b = 0; b < B; b++) returns[b] = env.finalReturn(b);
  return {
    B,
    N,
    R,
    T,
    tmax,
    obs: buffers.dense ? buffers.obs : buffers.shared,
    mask: buffers.mask,
    actions: buffers.actions,
    logp: buffers.logp,
    live: buffers.live,
    returns,
    tEnd: env.tEnd.slice(),
    credit,
    history: env.history,
    stats: collectStats(env),
    events: env.events.slice(),
  };
}
