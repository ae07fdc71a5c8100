import * as tf from '@tensorflow/tfjs';
import { A_IDLE, NUM_ACTIONS } from '../sim/actions';
import type { SprintEnv } from '../sim/env';
import { AGENT_DIM, encodeMasks, MODULE_DIM } from '../sim/observe';
import { encodeSharedObservations, SharedObservations } from '../sim/observeShared';
import type { ActionSource } from '../sim/policy';
import { mixSeed, nextFloat } from '../sim/rng';
import { actionProbabilities, packObservations, TRUNK_WIDTH } from './decisions';
import type { ActingRecord } from './actingRecord';
import { flatScores, type SwarmPolicy } from './policy';

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
  /**
   * Where `choose` keeps its forward passes (the trainer sets one while it collects a batch to learn
   * from, so the learn step's first epoch reuses them); null: they are freed after each minute.
   */
  record: ActingRecord | null = null;
  /**
   * @param seed seeds the sampling streams at every `reset`; change it between episodes (the trainer
   * does, per update) to draw fresh samples.
   */
  constructor(
    readonly policy: SwarmPolicy,
    public seed: number,
  ) {}

  reset(env: SprintEnv): void {
    const R = env.B * env.N;
    this.rng = new Uint32Array(env.B);
    for (let b = 0; b < env.B; b++) this.rng[b] = mixSeed(this.seed, 104729 + b);
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
   * B x N agents; writes the log-probability of each picked action into `logp` if given.
   */
  async choose(env: SprintEnv, obs: Float32Array | SharedObservations, mask: Float32Array, out: Int32Array, logp?: Float32Array): Promise<void> {
    const R = env.B * env.N;
    const M = scoredModules(env);
    const A = env.N;
    const rows = packObservations(obs, mask, R, M, A);
    const inputs = { trunk: tf.tensor2d(rows.trunk, [R, TRUNK_WIDTH]), modules: tf.tensor2d(rows.modules, [R * M, MODULE_DIM]), agents: tf.tensor2d(rows.agents, [R * A, AGENT_DIM]) };
    let scores: Float32Array;
    let kept = false;
    try {
      const forward = tf.tidy(() => this.policy.forward(inputs.trunk, inputs.modules, inputs.agents, M, A));
      try {
        const scoresT = tf.tidy(() => flatScores(forward));
        scores = (await scoresT.data()) as Float32Array;
        scoresT.dispose();
        if (this.record) {
          kept = true;
          this.record.add(rows, inputs, forward);
        }
      } finally {
        if (!kept) tf.dispose(Object.values(forward));
      }
    } finally {
      if (!kept) tf.dispose(Object.values(inputs));
    }
    if (this.probs.length < R * NUM_ACTIONS) this.probs = new Float32Array(R * NUM_ACTIONS);
    const probs = this.probs;
    actionProbabilities(scores, rows, probs);
    for (let r = 0; r < R; r++) {
      const base = r * NUM_ACTIONS;
      let pick = A_IDLE;
      if (this.greedy) {
        let best = -1;
        for (let a = 0; a < NUM_ACTIONS; a++) {
          if (mask[base + a] > 0 && probs[base + a] > best) {
            best = probs[base + a];
            pick = a;
          }
        }
      } else {
        let u = nextFloat(this.rng, Math.floor(r / env.N));
        for (let a = 0; a < NUM_ACTIONS; a++) {
          if (mask[base + a] === 0) continue;
          pick = a;
          u -= probs[base + a];
          if (u < 0) break;
        }
      }
      out[r] = pick;
      if (logp) logp[r] = Math.log(Math.max(probs[base + pick], 1e-30));
    }
  }
}

/** Modules the policy scores for `env`: its largest task's (the rest of the rows are empty and illegal). */
export function scoredModules(env: SprintEnv): number {
  let M = 1;
  for (let b = 0; b < env.B; b++) M = Math.max(M, env.M[b]);
  return M;
}
