import * as tf from '@tensorflow/tfjs';
import { A_IDLE, NUM_ACTIONS } from '../sim/actions';
import type { SprintEnv } from '../sim/env';
import { AGENT_DIM, encodeMasks, MODULE_DIM } from '../sim/observe';
import { encodeSharedObservations, SharedObservations } from '../sim/observeShared';
import type { ActionSource } from '../sim/actionSource';
import { mixSeed, nextFloat } from '../sim/rng';
import { actionProbabilities, type DecisionRows, isDecision, PackStore, packObservations, TRUNK_WIDTH } from './decisions';
import type { ActingRecord } from './actingRecord';
import { backendView, flatScores, type SwarmPolicy, uploadCopies } from './policy';

/**
 * Lets a policy act in the environment: one batched forward pass per minute for all B x N agents
 * (`SwarmPolicy.forward`), one read-back of the raw scores, then the masked softmaxes and the
 * sampling in JavaScript, from a seeded stream per rollout (so a trajectory does not depend on the
 * backend's random numbers).
 */
export class PolicyActor implements ActionSource {
  readonly name = 'trained swarm';
  /** Pick the most likely action instead of sampling. */
  greedy = false;
  private rng = new Uint32Array(0);
  private obs = new SharedObservations(0, 1);
  private mask = new Float32Array(0);
  private probs = new Float32Array(0);
  /** Where each minute's rows are packed, on a backend that copies what it uploads (`uploadCopies`). */
  private store = new PackStore();
  /**
   * Where `choose` keeps its forward passes (the trainer sets one while it collects a batch to learn
   * from, so the learn step's first epoch reuses them); null: they are freed after each minute.
   */
  record: ActingRecord | null = null;
  /**
   * @param seed seeds the sampling streams at every `reset`; change it between episodes (the trainer
   * does, per update) to draw fresh samples.
   * @param firstStream the stream of the environment's rollout 0 (a shard's rollouts draw from the
   * streams they have in the whole batch: shards.ts).
   */
  constructor(
    readonly policy: SwarmPolicy,
    public seed: number,
    readonly firstStream = 0,
  ) {}

  reset(env: SprintEnv): void {
    const R = env.B * env.N;
    this.rng = new Uint32Array(env.B);
    for (let b = 0; b < env.B; b++) this.rng[b] = mixSeed(this.seed, 104729 + this.firstStream + b);
    if (this.obs.slots !== env.B || this.obs.N !== env.N) {
      this.obs = new SharedObservations(env.B, env.N);
      this.mask = new Float32Array(R * NUM_ACTIONS);
    }
  }

  async act(env: SprintEnv, out: Int32Array): Promise<void> {
    encodeSharedObservations(env, this.obs);
    encodeMasks(env, this.mask);
    await this.choose(env, this.obs, this.mask, out);
  }

  /**
   * Picks actions for already-encoded observations (dense rows or shared blocks) and masks of all
   * B x N agents; writes the log-probability of each picked action into `logp` if given. Only the
   * rows with a real choice (two or more legal actions) go through the policy; the others take their
   * one legal action, with log-probability 0, without it (each still draws its random number, so
   * the rollout's stream does not depend on which rows were forced).
   */
  async choose(env: SprintEnv, obs: Float32Array | SharedObservations, mask: Float32Array, out: Int32Array, logp?: Float32Array): Promise<void> {
    const R = env.B * env.N;
    const decided = rowsWithAChoice(mask, R);
    const D = decided.length;
    if (D > 0) {
      const rows = packObservations(obs, mask, D, scoredModules(env), env.N, D === R ? null : decided, uploadCopies() ? this.store : undefined);
      if (this.probs.length < D * NUM_ACTIONS) this.probs = new Float32Array(D * NUM_ACTIONS);
      await this.score(rows, R, decided);
    } else {
      this.record?.skip();
    }
    const probs = this.probs;
    for (let r = 0, d = 0; r < R; r++) {
      const base = r * NUM_ACTIONS;
      const u = this.greedy ? 0 : nextFloat(this.rng, Math.floor(r / env.N));
      let pick = A_IDLE;
      if (d < D && decided[d] === r) {
        const p = d * NUM_ACTIONS;
        d++;
        if (this.greedy) {
          let best = -1;
          for (let a = 0; a < NUM_ACTIONS; a++) {
            if (mask[base + a] > 0 && probs[p + a] > best) {
              best = probs[p + a];
              pick = a;
            }
          }
        } else {
          let left = u;
          for (let a = 0; a < NUM_ACTIONS; a++) {
            if (mask[base + a] === 0) continue;
            pick = a;
            left -= probs[p + a];
            if (left < 0) break;
          }
        }
        if (logp) logp[r] = Math.log(Math.max(probs[p + pick], 1e-30));
      } else {
        for (let a = 0; a < NUM_ACTIONS; a++) if (mask[base + a] > 0) pick = a;
        if (logp) logp[r] = 0;
      }
      out[r] = pick;
    }
  }

  /**
   * The action probabilities of one minute's packed rows, into `probs`, from the raw scores of the
   * forward pass (`flatScores`), read where the backend keeps them if it can (`backendView`), else
   * read back. The forward pass and the uploaded rows go to the record if there is one (`decided`
   * are the rows of the minute's R that were packed), else they are freed.
   */
  private async score(rows: DecisionRows, R: number, decided: Int32Array): Promise<void> {
    const { rows: D, M, A } = rows;
    const inputs = {
      trunk: tf.tensor2d(rows.trunk, [D, TRUNK_WIDTH]),
      modules: tf.tensor2d(rows.modules, [D * M, MODULE_DIM]),
      agents: tf.tensor2d(rows.agents, [D * A, AGENT_DIM]),
    };
    let kept = false;
    try {
      const forward = tf.tidy(() => this.policy.forward(inputs.trunk, inputs.modules, inputs.agents, M, A));
      try {
        const scoresT = tf.tidy(() => flatScores(forward));
        try {
          actionProbabilities(backendView(scoresT) ?? ((await scoresT.data()) as Float32Array), rows, this.probs);
        } finally {
          scoresT.dispose();
        }
        if (this.record) {
          kept = true;
          this.record.add(R, decided, rows, inputs, forward);
        }
      } finally {
        if (!kept) tf.dispose(Object.values(forward));
      }
    } finally {
      if (!kept) tf.dispose(Object.values(inputs));
    }
  }
}

/** The rows (of R) that are decisions (`isDecision`): the ones the policy scores. */
function rowsWithAChoice(mask: Float32Array, R: number): Int32Array {
  const out = new Int32Array(R);
  let n = 0;
  for (let r = 0; r < R; r++) if (isDecision(mask, r)) out[n++] = r;
  return out.subarray(0, n);
}

/** Modules the policy scores for `env`: its largest task's (the rest of the rows are empty and illegal). */
export function scoredModules(env: SprintEnv): number {
  let M = 1;
  for (let b = 0; b < env.B; b++) M = Math.max(M, env.M[b]);
  return M;
}
