import * as tf from '@tensorflow/tfjs';
import { NUM_ACTIONS } from '../sim/actions';
import { scriptedOrganisation } from '../sim/baselines';
import { SprintEnv } from '../sim/env';
import { std, summariseWork, type WorkSummary } from '../sim/evaluate';
import type { SimEvent } from '../sim/events';
import { OBS_DIM } from '../sim/observe';
import { mixSeed } from '../sim/rng';
import { generateTask, type Task } from '../sim/task';
import { PolicyActor } from './actor';
import { gae, groupAdvantages, latencyPenalised } from './advantages';
import { scheduleOf, STRUCTURAL_KEYS, type Config } from './config';
import { SwarmPolicy, type PolicyJSON } from './policy';
import { BatchBuffers, collect, type Batch } from './rollout';
import { tmaxAt } from './schedule';

/** Compact numbers about one update, streamed to the CLI progress line and the app's curves. */
export interface UpdateMetrics extends WorkSummary {
  update: number;
  /** `prior`: imitation of the scripted organisation; `rlcr`: the collective policy gradient. */
  phase: 'prior' | 'rlcr';
  tmax: number;
  /** Spread (sd) of the return over the batch's rollouts. */
  retStd: number;
  /** Mean policy entropy over live decisions (nats). */
  entropy: number;
  loss: number;
  gradNorm: number;
  collectMs: number;
  learnMs: number;
}

export interface UpdateResult {
  metrics: UpdateMetrics;
  /** Event log of the showcase rollout of this update. */
  events: SimEvent[];
  /** The task the showcase rollout played. */
  showcaseTask: Task;
  /** Real work (agent-minutes) of each module in the showcase rollout's draw. */
  showcaseWork: number[];
}

/** Adam whose learning rate can change mid-run without losing its moment estimates. */
class TunableAdam extends tf.AdamOptimizer {
  constructor(lr: number) {
    super(lr, 0.9, 0.999);
  }

  setLearningRate(lr: number): void {
    this.learningRate = lr;
  }
}

const EVAL_SEED_BASE = 1_000_000_000;

/** Task seeds reserved for evaluation: disjoint from every training seed. */
export function evaluationSeed(i: number): number {
  return EVAL_SEED_BASE + i;
}

/** Seed of the g-th training task of update u (always below the evaluation range). */
export function trainingTaskSeed(seed: number, u: number, g: number): number {
  return mixSeed(seed, 1 + u * 64 + g) % EVAL_SEED_BASE;
}

/**
 * The RLCR trainer: each update plays G tasks x K rollouts with the shared policy at the current
 * deadline, gives every decision of a rollout that rollout's flat group-relative advantage, and
 * takes `epochs` clipped policy-gradient steps with Adam. The first `prior` updates (if any)
 * imitate the scripted organisation instead. Runs unchanged in Node and in a worker.
 */
export class Trainer {
  /** The run's settings; `reconfigure` may replace the non-structural ones between updates. */
  config: Config;
  readonly policy: SwarmPolicy;
  /** Updates done so far (imitation and RLCR together). */
  update = 0;
  private readonly optimizer: TunableAdam;
  private readonly env: SprintEnv;
  private readonly actor: PolicyActor;
  private readonly buffers = new BatchBuffers();
  private readonly streams: Int32Array;

  constructor(config: Config, policy?: SwarmPolicy) {
    this.config = config;
    this.policy = policy ?? SwarmPolicy.create({ hidden: config.hidden, scorer: config.scorer }, config.seed);
    this.optimizer = new TunableAdam(config.lr);
    const B = config.tasksPerUpdate * config.groupSize;
    this.env = new SprintEnv(B, config.agents);
    this.actor = new PolicyActor(this.policy, config.seed);
    this.streams = Int32Array.from({ length: B }, (_, b) => Math.floor(b / config.groupSize));
  }

  /**
   * Replaces the policy's weights with saved ones (`SwarmPolicy.toJSON`, e.g. a run file's
   * checkpoint) to continue training from them. Throws, changing nothing, if they were made for
   * another network shape than this trainer's config. Adam's moment estimates are kept.
   */
  loadWeights(weights: PolicyJSON): void {
    const { hidden, scorer } = this.policy.shape;
    if (weights?.shape?.hidden !== hidden || weights.shape.scorer !== scorer) {
      throw new Error(`the weights are for a policy of hidden ${weights?.shape?.hidden} / scorer ${weights?.shape?.scorer}, this trainer has ${hidden} / ${scorer}`);
    }
    const saved = SwarmPolicy.fromJSON(weights);
    this.policy.copyFrom(saved);
    saved.dispose();
  }

  /**
   * Applies `config` from the next update on if it differs from the current one only in fields that
   * can change mid-run (deadline schedule, learning settings, advantage and reward rules, update
   * count); the policy and the Adam moments are kept. Returns false, changing nothing, when a
   * structural field (see STRUCTURAL_KEYS) differs: that needs a new trainer.
   */
  reconfigure(config: Config): boolean {
    if (STRUCTURAL_KEYS.some((k) => config[k] !== this.config[k])) return false;
    if (config.lr !== this.config.lr) this.optimizer.setLearningRate(config.lr);
    this.config = { ...config };
    return true;
  }

  /** Imitation updates plus RLCR updates. */
  get totalUpdates(): number {
    return this.config.prior + this.config.updates;
  }

  get finished(): boolean {
    return this.update >= this.totalUpdates;
  }

  /** Deadline used by update `u` (imitation plays the final deadline). */
  tmaxAt(u: number = this.update): number {
    const c = this.config;
    if (u < c.prior) return c.tmaxEnd;
    return tmaxAt(scheduleOf(c), u - c.prior, c.updates);
  }

  /** Runs one update. */
  async step(): Promise<UpdateResult> {
    const c = this.config;
    const u = this.update;
    const phase = u < c.prior ? 'prior' : 'rlcr';
    const tmax = this.tmaxAt(u);
    const tasks: Task[] = [];
    for (let g = 0; g < c.tasksPerUpdate; g++) {
      const task = generateTask(c.family, trainingTaskSeed(c.seed, u, g));
      for (let k = 0; k < c.groupSize; k++) tasks.push(task);
    }
    const t0 = performance.now();
    this.actor.seed = mixSeed(c.seed, 3 + u);
    const batch = await collect(this.env, tasks, mixSeed(c.seed, 7 + u), tmax, this.actor, this.buffers, phase === 'prior' ? scriptedOrganisation : undefined, this.streams);
    const t1 = performance.now();
    const learned = phase === 'prior' ? await this.imitate(batch) : await this.learn(batch);
    const t2 = performance.now();
    this.update++;
    const metrics: UpdateMetrics = {
      ...summariseWork(batch.stats, c.agents),
      update: u,
      phase,
      tmax,
      retStd: std(batch.stats.map((s) => s.ret)),
      entropy: learned.entropy,
      loss: learned.loss,
      gradNorm: learned.gradNorm,
      collectMs: t1 - t0,
      learnMs: t2 - t1,
    };
    return { metrics, events: batch.events, showcaseTask: tasks[0], showcaseWork: Array.from(this.env.work.subarray(0, tasks[0].modules)) };
  }

  /** Per-decision advantages for the batch, by the configured rule. */
  private advantages(batch: Batch, values?: Float32Array): Float32Array {
    const c = this.config;
    const { B, N, R, T } = batch;
    const K = c.groupSize;
    const adv = new Float32Array(T * R);
    if (c.critic && values) {
      const H = batch.tmax + 1;
      for (let b = 0; b < B; b++) {
        const len = Math.min(T, Math.round(batch.tEnd[b]));
        const rewards = new Float32Array(len);
        for (let t = 0; t < len; t++) rewards[t] = batch.history[b * H + t + 1] - batch.history[b * H + t];
        for (let i = 0; i < N; i++) {
          const v = new Float32Array(len);
          for (let t = 0; t < len; t++) v[t] = values[t * R + b * N + i];
          const a = gae(rewards, v, c.gamma, c.lambda);
          for (let t = 0; t < len; t++) adv[t * R + b * N + i] = a[t];
        }
      }
      return adv;
    }
    if (c.rewards === 'individual') {
      // Agent i of a rollout is compared with agent i of the other rollouts of its group.
      const perAgent = new Float32Array(B * N);
      const col = new Float32Array(B);
      for (let i = 0; i < N; i++) {
        for (let b = 0; b < B; b++) col[b] = batch.credit[b * N + i];
        const a = groupAdvantages(c.latencyPenalty > 0 ? latencyPenalised(col, batch.tEnd, batch.tmax, K, c.latencyPenalty) : col, K, c.advantage);
        for (let b = 0; b < B; b++) perAgent[b * N + i] = a[b];
      }
      for (let t = 0; t < T; t++) adv.set(perAgent, t * R);
      return adv;
    }
    const returns = c.latencyPenalty > 0 ? latencyPenalised(batch.returns, batch.tEnd, batch.tmax, K, c.latencyPenalty) : batch.returns;
    const perRollout = groupAdvantages(returns, K, c.advantage);
    for (let t = 0; t < T; t++) for (let b = 0; b < B; b++) adv.fill(perRollout[b], t * R + b * N, t * R + (b + 1) * N);
    return adv;
  }

  /** The live decisions of a batch packed into tensors-to-be. */
  private pack(batch: Batch, perRow: Float32Array[]): { L: number; obs: Float32Array; mask: Float32Array; actions: Int32Array; rows: Float32Array[] } {
    const n = batch.T * batch.R;
    let L = 0;
    for (let r = 0; r < n; r++) L += batch.live[r];
    const obs = new Float32Array(L * OBS_DIM);
    const mask = new Float32Array(L * NUM_ACTIONS);
    const actions = new Int32Array(L);
    const rows = perRow.map(() => new Float32Array(L));
    for (let r = 0, l = 0; r < n; r++) {
      if (!batch.live[r]) continue;
      obs.set(batch.obs.subarray(r * OBS_DIM, (r + 1) * OBS_DIM), l * OBS_DIM);
      mask.set(batch.mask.subarray(r * NUM_ACTIONS, (r + 1) * NUM_ACTIONS), l * NUM_ACTIONS);
      actions[l] = batch.actions[r];
      for (let j = 0; j < perRow.length; j++) rows[j][l] = perRow[j][r];
      l++;
    }
    return { L, obs, mask, actions, rows };
  }

  /** Values of every decision row (critic ablation), read back once. */
  private async values(batch: Batch): Promise<Float32Array> {
    const n = batch.T * batch.R;
    const vT = tf.tidy(() => {
      const obs = tf.tensor2d(batch.obs.subarray(0, n * OBS_DIM), [n, OBS_DIM]);
      return this.policy.apply(obs, this.config.agents).value;
    });
    const v = (await vT.data()) as Float32Array;
    vT.dispose();
    return v;
  }

  private async learn(batch: Batch): Promise<{ loss: number; entropy: number; gradNorm: number }> {
    const c = this.config;
    const values = c.critic ? await this.values(batch) : undefined;
    const adv = this.advantages(batch, values);
    const targets = new Float32Array(adv.length);
    if (values) for (let r = 0; r < adv.length; r++) targets[r] = adv[r] + values[r];
    const p = this.pack(batch, [adv, batch.logp, targets]);
    if (p.L === 0) return { loss: 0, entropy: 0, gradNorm: 0 };
    const [advL, oldL, targetL] = p.rows;
    const obsT = tf.tensor2d(p.obs, [p.L, OBS_DIM]);
    const maskT = tf.tensor2d(p.mask, [p.L, NUM_ACTIONS]);
    const hotT = tf.tidy(() => tf.oneHot(tf.tensor1d(p.actions, 'int32'), NUM_ACTIONS));
    const advT = tf.tensor1d(advL);
    const oldT = tf.tensor1d(oldL);
    const targetT = tf.tensor1d(targetL);
    let out = { loss: 0, entropy: 0, gradNorm: 0 };
    try {
      for (let e = 0; e < c.epochs; e++) {
        let entropyT: tf.Scalar | null = null;
        const r = await this.applyLoss(() => {
          const { logp, value } = this.policy.logProbs(obsT, maskT, c.agents);
          const lpa = tf.sum(tf.mul(logp, hotT), 1);
          const ratio = tf.exp(tf.sub(lpa, oldT));
          const surrogate = tf.minimum(tf.mul(ratio, advT), tf.mul(tf.clipByValue(ratio, 1 - c.clip, 1 + c.clip), advT));
          const entropy = tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1))) as tf.Scalar;
          entropyT = tf.keep(entropy);
          let loss = tf.sub(tf.neg(tf.mean(surrogate)), tf.mul(c.entropy, entropy));
          if (c.critic) loss = tf.add(loss, tf.mul(0.5, tf.mean(tf.square(tf.sub(value, targetT)))));
          return loss as tf.Scalar;
        });
        const ent = entropyT as tf.Scalar | null;
        if (e === 0 && ent) out = { ...r, entropy: (await ent.data())[0] };
        ent?.dispose();
      }
    } finally {
      tf.dispose([obsT, maskT, hotT, advT, oldT, targetT]);
    }
    return out;
  }

  /** One imitation step: cross-entropy of the policy on the scripted organisation's decisions. */
  private async imitate(batch: Batch): Promise<{ loss: number; entropy: number; gradNorm: number }> {
    const p = this.pack(batch, []);
    if (p.L === 0) return { loss: 0, entropy: 0, gradNorm: 0 };
    const obsT = tf.tensor2d(p.obs, [p.L, OBS_DIM]);
    const maskT = tf.tensor2d(p.mask, [p.L, NUM_ACTIONS]);
    const hotT = tf.tidy(() => tf.oneHot(tf.tensor1d(p.actions, 'int32'), NUM_ACTIONS));
    try {
      const r = await this.applyLoss(() => tf.neg(tf.mean(tf.sum(tf.mul(this.policy.logProbs(obsT, maskT, this.config.agents).logp, hotT), 1))) as tf.Scalar);
      return { ...r, entropy: 0 };
    } finally {
      tf.dispose([obsT, maskT, hotT]);
    }
  }

  /** Gradient of `f` over the policy's variables, clipped by global norm, applied with Adam. */
  private async applyLoss(f: () => tf.Scalar): Promise<{ loss: number; gradNorm: number }> {
    const { value, grads } = tf.variableGrads(f, Object.values(this.policy.vars));
    const normT = tf.tidy(() => tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g))))));
    const [loss, norm] = await Promise.all([value.data(), normT.data()]);
    const clip = this.config.gradClip;
    const scale = clip > 0 && norm[0] > clip ? clip / norm[0] : 1;
    const scaled: tf.NamedTensorMap = {};
    for (const [k, g] of Object.entries(grads)) scaled[k] = scale === 1 ? g : tf.mul(g, scale);
    const optimizer: tf.Optimizer = this.optimizer;
    optimizer.applyGradients(scaled);
    tf.dispose([value, normT, ...Object.values(grads), ...(scale === 1 ? [] : Object.values(scaled))]);
    return { loss: loss[0], gradNorm: norm[0] };
  }

  dispose(): void {
    this.optimizer.dispose();
    this.policy.dispose();
  }
}
