import * as tf from '@tensorflow/tfjs';
import type { SprintEnv } from '../sim/env';
import type { SimEvent } from '../sim/events';
import { mixSeed } from '../sim/rng';
import type { Structure } from '../sim/presets';
import { EVAL_SEED_BASE } from '../sim/seeds';
import type { StructureSettings, StructureView } from '../sim/structure';
import { withCosts, type SprintCosts } from '../sim/costs';
import { generateTask, type Task } from '../sim/task';
import { ActingRecord, uploadDecisions } from './actingRecord';
import { PolicyActor, scoredModules } from './actor';
import { decisionAdvantages } from './advantages';
import { costsAt, entropyAt, lrAt, rebuildsTrainer, teamAt, type Config } from './config';
import { deadlineAt } from './deadline';
import { PackStore, packObservations, TRUNK_WIDTH } from './decisions';
import { NumericFault, type FaultSite } from './numericFault';
import { finite, NumericGuard } from './numericGuard';
import { SwarmPolicy, uploadCopies, type PolicyJSON } from './policy';
import { GRADIENT_VARS, lossAndGradients, type RowLoss } from './policyGradient';
import { FlatAdam } from './adam';
import { learnerPlays } from './imitation';
import { updateMetrics, type LearnStats, type UpdateMetrics } from './metrics';
import { BatchBuffers, collect, type Batch, type CollectHooks, type Imitation } from './rollout';
import { trainingStructure, type TrainingStructure } from './trainingStructure';
import type { FrozenWorkers, WorkerSpec } from './frozenWorkers';
import { shardGroups, type ShardPart, type ShardPlace } from './shards';

export interface UpdateResult {
  metrics: UpdateMetrics;
  /** Event log of the showcase rollout of this update. */
  events: SimEvent[];
  /** The task the showcase rollout played. */
  showcaseTask: Task;
  /** Real work (agent-minutes) of each module in the showcase rollout's draw. */
  showcaseWork: number[];
  /** The organisation structure of the showcase rollout (absent for flat). */
  structure?: StructureView;
}

/** Seed of the g-th training task of update u (always below the evaluation range). */
export function trainingTaskSeed(seed: number, u: number, g: number): number {
  return mixSeed(seed, 1 + u * 64 + g) % EVAL_SEED_BASE;
}

/**
 * The RLCR trainer: each update plays G tasks x K rollouts with the shared policy at the current
 * deadline, gives every decision of a rollout that rollout's flat group-relative advantage
 * (advantages.ts), and takes `epochs` clipped policy-gradient steps with Adam. The first `prior` updates (if any)
 * imitate the scripted organisation instead. Runs unchanged in Node and in a worker.
 */
export class Trainer {
  /** The run's settings; `reconfigure` may replace the non-structural ones between updates. */
  config: Config;
  readonly policy: SwarmPolicy;
  /** Updates done so far (imitation and RLCR together). */
  update = 0;
  /** What the organisation structure changes in training (trainingStructure.ts). */
  readonly training: TrainingStructure;
  private optimizer: FlatAdam;
  /** Numeric guard: the last good weights, and the check for NaN/Infinity after every step. */
  private readonly guard: NumericGuard;
  private readonly env: SprintEnv;
  private readonly actor: PolicyActor;
  private readonly buffers: BatchBuffers;
  /** The actor's record of one batch's forward passes, emptied after each learn step and reused (its storage grows to the largest batch). */
  private readonly record: ActingRecord;
  /** Where a learn step's rows are packed, reused from one update to the next on a backend that copies its uploads. */
  private readonly packStore = new PackStore();
  private readonly streams: ArrayLike<number> | undefined;
  /** Whether the last learn step's first epoch ran on the actor's recorded forward pass (`ActingRecord`). */
  firstEpochFromActing = false;
  /** The task groups [from, to) of each update this trainer collects (all of them unless it is a shard). */
  readonly groups: { from: number; to: number };
  /** Where this trainer sits among the shards of a data-parallel run (shards.ts); null when it trains alone. */
  private readonly shard: ShardPlace | null;

  /**
   * @param options.denseObservations collect a dense observation row per agent instead of shared
   * blocks: the layout before them, which trains the same weights; kept for the tests that check it.
   * @param options.shard makes this trainer one shard of a data-parallel run (shards.ts): it collects
   * only its task groups and learns from the gradient all shards agree on. Flat structure only.
   */
  constructor(config: Config, policy?: SwarmPolicy, options: { denseObservations?: boolean; shard?: ShardPlace } = {}) {
    this.config = config;
    this.shard = options.shard ?? null;
    if (this.shard && config.structure !== 'flat') throw new RangeError(`only the flat structure trains in shards, not ${config.structure}`);
    this.groups = this.shard ? shardGroups(config.tasksPerUpdate, this.shard.index, this.shard.count) : { from: 0, to: config.tasksPerUpdate };
    this.buffers = new BatchBuffers(options.denseObservations === true);
    this.policy = policy ?? SwarmPolicy.create({ hidden: config.hidden, scorer: config.scorer }, config.seed);
    this.record = new ActingRecord(this.policy);
    this.optimizer = new FlatAdam(config.lr);
    const K = config.groupSize;
    const B = (this.groups.to - this.groups.from) * K;
    this.training = trainingStructure(config, this.policy);
    this.env = this.structure.createEnv(B);
    // A shard's rollouts draw their work and their samples from the streams they have in the whole batch.
    this.actor = new PolicyActor(this.policy, config.seed, this.groups.from * K);
    this.streams = this.structure.cellStreams(
      Int32Array.from({ length: B }, (_, b) => this.groups.from + Math.floor(b / K)),
      B,
    );
    this.guard = new NumericGuard(Object.values(this.policy.vars));
  }

  /** How the organisation structure maps the swarm onto the environment. */
  get structure(): Structure {
    return this.training.structure;
  }

  /** The orchestrator's workers (null for the other structures). */
  get workers(): FrozenWorkers | null {
    return this.training.workers;
  }

  /**
   * Replaces the policy's weights with saved ones (`SwarmPolicy.toJSON`, e.g. a run file's
   * checkpoint) to continue training from them. Throws, changing nothing, if they were made for
   * another network shape than this trainer's config. Adam's moment estimates are kept.
   */
  loadWeights(weights: PolicyJSON): void {
    const { hidden, scorer } = this.policy.shape;
    if (weights?.shape?.hidden !== hidden || weights.shape.scorer !== scorer) {
      throw new Error(
        `the weights are for a policy of hidden ${weights?.shape?.hidden} / scorer ${weights?.shape?.scorer}, this trainer has ${hidden} / ${scorer}`,
      );
    }
    const saved = SwarmPolicy.fromJSON(weights);
    this.policy.copyFrom(saved);
    saved.dispose();
    this.guard.commit();
  }

  /**
   * Applies `config` from the next update on if it differs from the current one only in fields that
   * can change mid-run (deadline schedule, learning settings, advantage and reward rules, update
   * count); the policy and the Adam moments are kept. Returns false, changing nothing, when a
   * structural field differs (rebuildsTrainer): that needs a new trainer.
   */
  reconfigure(config: Config): boolean {
    if (rebuildsTrainer(this.config, config)) return false;
    if (config.lr !== this.config.lr) this.optimizer.learningRate = config.lr;
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

  /** Deadline used by update `u` (imitation sweeps the schedule's deadlines first; see deadlineAt). */
  tmaxAt(u: number = this.update): number {
    return deadlineAt(this.config, u);
  }

  /** Weight of the orchestrator's shaping reward in update `u` (0 for the other structures). */
  shapingWeight(u: number = this.update): number {
    return this.training.shapingWeight(u, this.config);
  }

  /** The organisation the trained swarm plays in an evaluation (structure, and the orchestrator's workers). */
  evaluationSetup(): { structure: StructureSettings; workers?: WorkerSpec; costs?: SprintCosts } {
    return this.training.evaluationSetup(this.config);
  }

  /** Runs one update: collect, advantages, learn, metrics (docs/ENGINE.md, "Update"). */
  async step(): Promise<UpdateResult> {
    const c = this.config;
    const u = this.update;
    const phase = u < c.prior ? 'prior' : 'rlcr';
    const tmax = this.tmaxAt(u);
    // Collect: the batch of G tasks x K rollouts at this update's deadline.
    const tasks: Task[] = [];
    const costs = costsAt(c, u);
    // The team schedule: the agents that play this update's rollouts (the whole team unless it grows).
    this.env.teamSize = teamAt(c, u);
    for (let g = this.groups.from; g < this.groups.to; g++) {
      const task = withCosts(generateTask(c.family, trainingTaskSeed(c.seed, u, g)), costs);
      for (let k = 0; k < c.groupSize; k++) tasks.push(task);
    }
    const t0 = performance.now();
    const training = this.training;
    const hooks = training.prepare(this.env, u, c);
    const imitation =
      phase === 'prior'
        ? { teacher: training.behaviour(), learnerPlays: this.cellsOf(learnerPlays(u, c.prior, this.groups.to - this.groups.from, c.groupSize)) }
        : undefined;
    // While it collects a batch to learn from, the actor keeps its forward passes for the first epoch
    // (not when the structure learns from some agents only: the actor scores every agent's decisions).
    const record = phase === 'rlcr' && !hooks?.learners ? this.record : null;
    const shaping = training.shapingWeight(u, c);
    let batch: Batch;
    let learned: LearnStats;
    let t1: number;
    try {
      batch = await this.collect(u, tasks, tmax, imitation, hooks, record);
      t1 = performance.now();
      // Advantages and learning (the imitation prior learns from the teacher's labels instead).
      if (phase === 'prior') learned = await this.imitate(batch);
      else {
        const values = c.critic ? await this.values(batch) : undefined;
        const adv = decisionAdvantages(c, batch, training.teams(batch), values, training.bonus(this.env, shaping));
        this.optimizer.learningRate = lrAt(c, u);
        learned = await this.learn(batch, adv, values, record);
      }
    } finally {
      record?.dispose(); // what the learn step did not take
    }
    const t2 = performance.now();
    this.update++;
    // Metrics (a shard's: the whole batch's), and what the live views show of the showcase rollout.
    const stats = this.shard ? await this.shard.exchange.gather(batch.stats) : this.structure.teamStats(batch.stats);
    const metrics = updateMetrics(
      { update: u, phase, tmax },
      stats,
      c.agents,
      learned,
      { collectMs: t1 - t0, learnMs: t2 - t1 },
      training.metrics(this.env, shaping),
    );
    const result: UpdateResult = {
      metrics,
      events: batch.events,
      showcaseTask: tasks[0],
      showcaseWork: Array.from(this.env.work.subarray(0, tasks[0].modules)),
    };
    const view = training.view(this.env, tasks[0]);
    if (view) result.structure = view;
    return result;
  }

  /** Plays update `u`'s rollouts of `tasks` at deadline `tmax`; the actor's forward passes go to `record`, if any. */
  private async collect(
    u: number,
    tasks: Task[],
    tmax: number,
    imitation: Imitation | undefined,
    hooks: CollectHooks | undefined,
    record: ActingRecord | null,
  ): Promise<Batch> {
    const seed = this.config.seed;
    this.actor.seed = mixSeed(seed, 3 + u);
    this.actor.record = record;
    try {
      return await collect(this.env, this.structure.cellTasks(tasks), mixSeed(seed, 7 + u), tmax, this.actor, this.buffers, imitation, this.streams, hooks);
    } finally {
      this.actor.record = null;
    }
  }

  /** Values of every decision row (critic ablation), read back once. */
  private async values(batch: Batch): Promise<Float32Array> {
    const n = batch.T * batch.R;
    const vT = tf.tidy(() => this.policy.values(tf.tensor2d(packObservations(batch.obs, batch.mask, n, 1, this.env.N).trunk, [n, TRUNK_WIDTH])));
    const v = (await vT.data()) as Float32Array;
    vT.dispose();
    return v;
  }

  /**
   * The RLCR learn step on the batch's live decisions: `epochs` clipped policy-gradient steps on the
   * advantages `adv` (one per decision row; with the critic, its value loss towards adv + `values`).
   */
  private async learn(batch: Batch, adv: Float32Array, values: Float32Array | undefined, record: ActingRecord | null): Promise<LearnStats> {
    const c = this.config;
    const entropyBonus = entropyAt(c, this.update);
    const targets = new Float32Array(adv.length);
    if (values) for (let r = 0; r < adv.length; r++) targets[r] = adv[r] + values[r];
    const pick = this.liveRows(batch);
    const L = pick.length;
    this.firstEpochFromActing = false;
    if (L === 0) return this.shard ? this.learnNothing(c.epochs) : { loss: 0, entropy: 0, gradNorm: 0 };
    const gather = (src: Float32Array) => Float32Array.from(pick, (r) => src[r]);
    const data = uploadDecisions(batch, pick, scoredModules(this.env), this.env.N, record, this.packs());
    this.firstEpochFromActing = data.forward !== null;
    const advT = tf.tensor1d(gather(adv));
    const oldT = tf.tensor1d(gather(batch.logp));
    const targetT = tf.tensor1d(gather(targets));
    let out = { loss: 0, entropy: 0, gradNorm: 0 };
    // The clipped surrogate, the entropy bonus and (critic ablation) the value loss, per decision row.
    const loss: RowLoss = (chosen, entropy, value) => {
      const ratio = tf.exp(tf.sub(chosen, oldT));
      const surrogate = tf.minimum(tf.mul(ratio, advT), tf.mul(tf.clipByValue(ratio, 1 - c.clip, 1 + c.clip), advT));
      let l = tf.sub(tf.neg(tf.mean(surrogate)), tf.mul(entropyBonus, tf.mean(entropy)));
      if (c.critic) l = tf.add(l, tf.mul(0.5, tf.mean(tf.square(tf.sub(value, targetT)))));
      return l as tf.Scalar;
    };
    try {
      for (let e = 0; e < c.epochs; e++) {
        // The first epoch runs with the weights the actor acted with: its forward pass, if recorded.
        const g = lossAndGradients(this.policy, data.rows, data.choices, loss, data.forward ?? undefined);
        data.dropForward();
        const r = await this.applyGradients(g.loss, g.grads, L, g.entropy);
        if (e === 0) out = r;
      }
    } finally {
      data.dispose();
      tf.dispose([advT, oldT, targetT]);
    }
    return out;
  }

  /** One imitation step: cross-entropy of the policy on the scripted organisation's decisions. */
  private async imitate(batch: Batch): Promise<LearnStats> {
    const pick = this.liveRows(batch);
    if (pick.length === 0) return this.shard ? { ...(await this.learnNothing(1)), entropy: 0 } : { loss: 0, entropy: 0, gradNorm: 0 };
    const data = uploadDecisions(batch, pick, scoredModules(this.env), this.env.N, null, this.packs());
    try {
      const g = lossAndGradients(this.policy, data.rows, data.choices, (chosen) => tf.neg(tf.mean(chosen)) as tf.Scalar);
      const r = await this.applyGradients(g.loss, g.grads, pick.length, g.entropy);
      return { ...r, entropy: 0 };
    } finally {
      data.dispose();
    }
  }

  /**
   * Applies gradients (per variable name) of the loss `value` with Adam, clipped by global norm;
   * disposes them, `value` and `entropy`. A shard applies the gradient all shards agree on instead
   * of its own (`rows` of its decisions made its own).
   */
  private async applyGradients(value: tf.Scalar, grads: tf.NamedTensorMap, rows: number, entropy: tf.Scalar): Promise<LearnStats> {
    let entT: tf.Scalar | null = entropy;
    let ent = 0;
    if (this.shard) {
      const [l, h, flat] = await Promise.all([value.data(), entropy.data(), this.flatGradients(grads)]);
      const mine: ShardPart = { rows, loss: l[0], entropy: h[0], grads: flat };
      tf.dispose([value, entropy, ...Object.values(grads)]);
      const all = await this.shard.exchange.reduce(mine);
      // No shard had a decision: no step, as for a trainer alone.
      if (all.rows === 0) return { loss: 0, entropy: 0, gradNorm: 0 };
      value = tf.scalar(all.loss);
      grads = this.namedGradients(all.grads);
      ent = all.entropy;
      entT = null;
    }
    const normT = tf.tidy(() => tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g))))));
    // One read-back for the three numbers (a trainer alone reads its entropy here too).
    const [loss, norm, e] = await Promise.all([value.data(), normT.data(), entT ? entT.data() : null]);
    if (entT) {
      ent = e![0];
      entT.dispose();
    }
    // Numeric guard: a non-finite loss or gradient stops the run before the step is applied.
    if (!finite(loss[0], norm[0])) {
      tf.dispose([value, normT, ...Object.values(grads)]);
      throw this.fault(finite(loss[0]) ? 'gradients' : 'loss');
    }
    const clip = this.config.gradClip;
    const scale = clip > 0 && norm[0] > clip ? clip / norm[0] : 1;
    const scaled: tf.NamedTensorMap = {};
    for (const [k, g] of Object.entries(grads)) scaled[k] = scale === 1 ? g : tf.mul(g, scale);
    this.optimizer.applyGradients(scaled);
    tf.dispose([value, normT, ...Object.values(grads), ...(scale === 1 ? [] : Object.values(scaled))]);
    // Numeric guard: weights that left the finite numbers are replaced by the last good ones.
    if (!(await this.guard.weightsFinite())) throw this.fault('weights');
    this.guard.commit();
    return { loss: loss[0], entropy: ent, gradNorm: norm[0] };
  }

  /** A shard without a decision this update still takes part in each of its `steps` exchanges, with no rows. */
  private async learnNothing(steps: number): Promise<LearnStats> {
    let out: LearnStats = { loss: 0, entropy: 0, gradNorm: 0 };
    for (let e = 0; e < steps; e++) {
      const zeros = Object.fromEntries(this.gradientVars().map((v) => [v.name, tf.zerosLike(v)]));
      const r = await this.applyGradients(tf.scalar(0), zeros, 0, tf.scalar(0));
      if (e === 0) out = r;
    }
    return out;
  }

  /** The variables a loss has a gradient for, in `GRADIENT_VARS` order (the same in every shard). */
  private gradientVars(): tf.Variable[] {
    return GRADIENT_VARS.map((k) => this.policy.vars[k]);
  }

  /** The gradients as one array, every variable in `gradientVars` order: joined on the backend, read back once. */
  private async flatGradients(grads: tf.NamedTensorMap): Promise<Float32Array> {
    const flat = tf.tidy(() => tf.concat(this.gradientVars().map((v) => grads[v.name].reshape([-1]))));
    try {
      return (await flat.data()) as Float32Array;
    } finally {
      flat.dispose();
    }
  }

  /** `flatGradients`' array back as tensors per variable name. */
  private namedGradients(flat: Float32Array): tf.NamedTensorMap {
    const vars = this.gradientVars();
    return tf.tidy(() => {
      const parts = tf.split(
        tf.tensor1d(flat),
        vars.map((v) => v.size),
      );
      return Object.fromEntries(vars.map((v, i) => [v.name, parts[i].reshape(v.shape)]));
    });
  }

  /** Numeric guard: puts the last good weights back, starts Adam afresh and describes the fault. */
  private fault(site: FaultSite): NumericFault {
    this.guard.restore();
    this.optimizer.dispose();
    this.optimizer = new FlatAdam(this.config.lr);
    return new NumericFault(site, this.update, this.config);
  }

  /** A per-swarm-rollout flag expanded to the environment's rollouts (every cell of a rollout alike). */
  private cellsOf(flags: Uint8Array): Uint8Array {
    const cells = this.structure.cells;
    if (cells === 1) return flags;
    const out = new Uint8Array(flags.length * cells);
    for (let b = 0; b < flags.length; b++) out.fill(flags[b], b * cells, (b + 1) * cells);
    return out;
  }

  /** Indices of the live decision rows of a batch (the ones learned from). */
  private liveRows(batch: Batch): Int32Array {
    const n = batch.T * batch.R;
    let L = 0;
    for (let r = 0; r < n; r++) L += batch.live[r];
    const pick = new Int32Array(L);
    for (let r = 0, l = 0; r < n; r++) if (batch.live[r]) pick[l++] = r;
    return pick;
  }

  /** The learn step's pack storage, where the backend copies what it uploads (`uploadCopies`). */
  private packs(): PackStore | undefined {
    return uploadCopies() ? this.packStore : undefined;
  }

  dispose(): void {
    this.guard.dispose();
    this.optimizer.dispose();
    this.policy.dispose();
    this.training.dispose();
  }
}
