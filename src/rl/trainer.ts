import * as tf from '@tensorflow/tfjs';
import { NUM_ACTIONS } from '../sim/actions';
import { scriptedOrganisation } from '../sim/baselines';
import { CeoRules, scriptedCeo } from '../sim/ceo';
import type { SprintEnv } from '../sim/env';
import { std, summariseWork, type WorkSummary } from '../sim/evaluate';
import type { SimEvent } from '../sim/events';
import { OBS_DIM } from '../sim/observe';
import { orchestrated, OrchestratorRules, scriptedOrchestrator, scriptedWorkers } from '../sim/orchestrator';
import type { ActionSource } from '../sim/policy';
import { createStructure } from '../sim/presets';
import { mixSeed } from '../sim/rng';
import type { Structure, StructureSettings, StructureView } from '../sim/structure';
import { generateTask, type Task } from '../sim/task';
import { PolicyActor } from './actor';
import { gae, groupAdvantages, latencyPenalised } from './advantages';
import { scheduleOf, STRUCTURAL_KEYS, type Config } from './config';
import { finite, NumericFault, NumericGuard, type FaultSite } from './numericGuard';
import { SwarmPolicy, type PolicyJSON } from './policy';
import { BatchBuffers, collect, type Batch, type CollectHooks } from './rollout';
import { tmaxAt } from './schedule';
import { FrozenWorkers, type WorkerSpec } from './workers';

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
  /** CEO: mean number of active agents per minute played. */
  headCount?: number;
  /** CEO: mean agent-minutes of the budget spent per episode. */
  budgetSpent?: number;
  /** CEO: hires per episode. */
  hires?: number;
  /** CEO: fires per episode. */
  fires?: number;
  /** Islands: mean return of the best island (equal to `ret`). */
  islandBest?: number;
  /** Islands: mean return over all islands. */
  islandMean?: number;
  /** Orchestrator: mean critical steps per episode (per stage, orchestrator steps + slowest worker's). */
  criticalSteps?: number;
  /** Orchestrator: assignments per episode. */
  assigns?: number;
  /** Orchestrator: share of the workers that got an assignment. */
  parallelShare?: number;
  /** Orchestrator: share of the assigned modules finished. */
  finishShare?: number;
  /** Orchestrator: weight of the shaping reward in this update (0 when off or annealed away). */
  shapingWeight?: number;
}

/** The structure-specific metrics, in the order the CLI writes them. */
export const STRUCTURE_METRICS = ['headCount', 'budgetSpent', 'hires', 'fires', 'islandBest', 'islandMean', 'criticalSteps', 'assigns', 'parallelShare', 'finishShare', 'shapingWeight'] as const satisfies readonly (keyof UpdateMetrics)[];

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
  /** How the organisation structure maps the swarm onto the environment. */
  readonly structure: Structure;
  /** The orchestrator's workers (null for the other structures). */
  readonly workers: FrozenWorkers | null;
  private optimizer: TunableAdam;
  /** Numeric guard: the last good weights, and the check for NaN/Infinity after every step. */
  private readonly guard: NumericGuard;
  private readonly env: SprintEnv;
  private readonly actor: PolicyActor;
  private readonly buffers = new BatchBuffers();
  private readonly streams: ArrayLike<number> | undefined;

  constructor(config: Config, policy?: SwarmPolicy) {
    this.config = config;
    this.policy = policy ?? SwarmPolicy.create({ hidden: config.hidden, scorer: config.scorer }, config.seed);
    this.optimizer = new TunableAdam(config.lr);
    const B = config.tasksPerUpdate * config.groupSize;
    this.structure = createStructure(config, config.agents);
    this.env = this.structure.createEnv(B);
    this.actor = new PolicyActor(this.policy, config.seed);
    this.streams = this.structure.cellStreams(
      Int32Array.from({ length: B }, (_, b) => Math.floor(b / config.groupSize)),
      B,
    );
    this.workers = config.structure === 'orchestrator' ? new FrozenWorkers(config.workerPolicy, config.snapshotAt, this.policy) : null;
    this.guard = new NumericGuard(Object.values(this.policy.vars));
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
    this.guard.commit();
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
    if (this.env.rules instanceof CeoRules) this.env.rules.budget = c.budget;
    const hooks = this.hooks(u);
    const cellTasks = this.structure.cellTasks(tasks);
    const batch = await collect(this.env, cellTasks, mixSeed(c.seed, 7 + u), tmax, this.actor, this.buffers, phase === 'prior' ? this.behaviour() : undefined, this.streams, hooks);
    const t1 = performance.now();
    const shaping = this.shapingWeight(u);
    const learned = phase === 'prior' ? await this.imitate(batch) : await this.learn(batch, this.shapingBonus(shaping));
    const t2 = performance.now();
    this.update++;
    const stats = this.structure.teamStats(batch.stats);
    const metrics: UpdateMetrics = {
      ...summariseWork(stats, c.agents),
      update: u,
      phase,
      tmax,
      retStd: std(stats.map((s) => s.ret)),
      entropy: learned.entropy,
      loss: learned.loss,
      gradNorm: learned.gradNorm,
      collectMs: t1 - t0,
      learnMs: t2 - t1,
      ...this.structureMetrics(shaping),
    };
    const result: UpdateResult = { metrics, events: batch.events, showcaseTask: tasks[0], showcaseWork: Array.from(this.env.work.subarray(0, tasks[0].modules)) };
    if (this.structure.kind !== 'flat') result.structure = this.structure.view(this.env, tasks[0]);
    return result;
  }

  /** How collection differs under the structure in update `u` (none when flat). */
  private hooks(u: number): CollectHooks | undefined {
    if (this.structure.kind === 'flat') return undefined;
    const hooks: CollectHooks = { logCount: this.structure.cells };
    if (this.workers && this.workers.prepare(u, mixSeed(mixSeed(this.config.seed, 3 + u), 17))) {
      hooks.workers = this.workers;
      hooks.learners = Uint8Array.from({ length: this.env.N }, (_, i) => (i === 0 ? 1 : 0));
    }
    return hooks;
  }

  private orchestratedPrior: ActionSource | null = null;

  /** What the imitation prior imitates: the scripted organisation, or the structure's scripted version. */
  private behaviour(): ActionSource {
    if (this.structure.kind === 'ceo') return scriptedCeo;
    if (this.structure.kind === 'orchestrator') return (this.orchestratedPrior ??= orchestrated(scriptedOrchestrator, scriptedWorkers));
    return scriptedOrganisation;
  }

  /**
   * Weight of the orchestrator's shaping reward in update `u`: `shaping` x (1 - r / anneal) for the
   * r-th RLCR update, where anneal is `shapingAnneal` (or all RLCR updates when 0); never below 0.
   */
  shapingWeight(u: number = this.update): number {
    const c = this.config;
    if (c.structure !== 'orchestrator' || c.shaping <= 0) return 0;
    const anneal = c.shapingAnneal > 0 ? c.shapingAnneal : c.updates;
    return c.shaping * Math.max(0, 1 - Math.max(0, u - c.prior) / anneal);
  }

  /**
   * The shaping bonus of every rollout of the last episode: `weight` x the mean of the share of
   * workers that got an assignment (parallel work) and the share of assigned modules finished
   * (Kimi Agent Swarm's PARL shaping). Null when the weight is 0.
   */
  private shapingBonus(weight: number): Float32Array | null {
    const rules = this.env.rules;
    if (weight <= 0 || !(rules instanceof OrchestratorRules)) return null;
    return Float32Array.from({ length: this.env.B }, (_, b) => (weight * (rules.parallelShare(this.env, b) + rules.finishShare(this.env, b))) / 2);
  }

  /** Means of the structure's numbers over the last episode's rollouts (none when flat). */
  private structureMetrics(shaping: number): Partial<UpdateMetrics> {
    if (this.structure.kind === 'flat') return {};
    const rows = this.structure.summaries(this.env);
    const out: Record<string, number> = {};
    for (const row of rows) for (const [k, v] of Object.entries(row)) out[k] = (out[k] ?? 0) + v / rows.length;
    if (this.structure.kind === 'orchestrator') out.shapingWeight = shaping;
    return out as Partial<UpdateMetrics>;
  }

  /** The organisation the trained swarm plays in an evaluation (structure, and the orchestrator's workers). */
  evaluationSetup(): { structure: StructureSettings; workers?: WorkerSpec } {
    const c = this.config;
    const structure: StructureSettings = { structure: c.structure, budget: c.budget, islands: c.islands };
    const workers = this.workers?.spec;
    return workers ? { structure, workers } : { structure };
  }

  /**
   * The batch seen per rollout of the swarm: under islands the best island's return and anytime
   * curve and the earliest end of the islands (`I` consecutive rollouts of the batch); otherwise the
   * batch's own arrays.
   */
  private teams(batch: Batch): { I: number; returns: Float32Array; tEnd: Float32Array; history: Float32Array } {
    const I = this.structure.cells;
    if (I === 1) return { I, returns: batch.returns, tEnd: batch.tEnd, history: batch.history };
    const teams = batch.B / I;
    const H = batch.tmax + 1;
    const returns = new Float32Array(teams);
    const tEnd = new Float32Array(teams);
    const history = new Float32Array(teams * H);
    for (let team = 0; team < teams; team++) {
      returns[team] = -Infinity;
      tEnd[team] = Infinity;
      for (let c = team * I; c < (team + 1) * I; c++) {
        returns[team] = Math.max(returns[team], batch.returns[c]);
        tEnd[team] = Math.min(tEnd[team], batch.tEnd[c]);
        for (let t = 0; t < H; t++) history[team * H + t] = Math.max(history[team * H + t], batch.history[c * H + t]);
      }
    }
    return { I, returns, tEnd, history };
  }

  /**
   * Per-decision advantages for the batch, by the configured rule. Every rollout of the swarm (all
   * its islands) gets its group-relative advantage; `bonus` (orchestrator shaping) is added to the
   * collective return of each rollout before the comparison.
   */
  private advantages(batch: Batch, values?: Float32Array, bonus?: Float32Array | null): Float32Array {
    const c = this.config;
    const { B, N, R, T } = batch;
    const K = c.groupSize;
    const adv = new Float32Array(T * R);
    const { I, returns: teamReturns, tEnd, history } = this.teams(batch);
    const teams = B / I;
    if (c.critic && values) {
      const H = batch.tmax + 1;
      for (let b = 0; b < B; b++) {
        const team = Math.floor(b / I);
        const len = Math.min(T, Math.round(batch.tEnd[b]));
        const rewards = new Float32Array(len);
        for (let t = 0; t < len; t++) rewards[t] = history[team * H + t + 1] - history[team * H + t];
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
      // Agent i of a rollout (island g) is compared with agent i (of island g) of the other rollouts of its group.
      const perAgent = new Float32Array(B * N);
      const col = new Float32Array(teams);
      for (let g = 0; g < I; g++) {
        for (let i = 0; i < N; i++) {
          for (let team = 0; team < teams; team++) col[team] = batch.credit[(team * I + g) * N + i];
          const a = groupAdvantages(c.latencyPenalty > 0 ? latencyPenalised(col, tEnd, batch.tmax, K, c.latencyPenalty) : col, K, c.advantage);
          for (let team = 0; team < teams; team++) perAgent[(team * I + g) * N + i] = a[team];
        }
      }
      for (let t = 0; t < T; t++) adv.set(perAgent, t * R);
      return adv;
    }
    const shaped = bonus ? teamReturns.map((r, team) => r + bonus[team]) : teamReturns;
    const returns = c.latencyPenalty > 0 ? latencyPenalised(shaped, tEnd, batch.tmax, K, c.latencyPenalty) : shaped;
    const perRollout = groupAdvantages(returns, K, c.advantage);
    for (let t = 0; t < T; t++) for (let b = 0; b < B; b++) adv.fill(perRollout[Math.floor(b / I)], t * R + b * N, t * R + (b + 1) * N);
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
      return this.policy.apply(obs, this.env.N).value;
    });
    const v = (await vT.data()) as Float32Array;
    vT.dispose();
    return v;
  }

  private async learn(batch: Batch, bonus: Float32Array | null = null): Promise<{ loss: number; entropy: number; gradNorm: number }> {
    const c = this.config;
    const values = c.critic ? await this.values(batch) : undefined;
    const adv = this.advantages(batch, values, bonus);
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
          const { logp, value } = this.policy.logProbs(obsT, maskT, this.env.N);
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
      const r = await this.applyLoss(() => tf.neg(tf.mean(tf.sum(tf.mul(this.policy.logProbs(obsT, maskT, this.env.N).logp, hotT), 1))) as tf.Scalar);
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
    // Numeric guard: a non-finite loss or gradient stops the run before the step is applied.
    if (!finite(loss[0], norm[0])) {
      tf.dispose([value, normT, ...Object.values(grads)]);
      throw this.fault(finite(loss[0]) ? 'gradients' : 'loss');
    }
    const clip = this.config.gradClip;
    const scale = clip > 0 && norm[0] > clip ? clip / norm[0] : 1;
    const scaled: tf.NamedTensorMap = {};
    for (const [k, g] of Object.entries(grads)) scaled[k] = scale === 1 ? g : tf.mul(g, scale);
    const optimizer: tf.Optimizer = this.optimizer;
    optimizer.applyGradients(scaled);
    tf.dispose([value, normT, ...Object.values(grads), ...(scale === 1 ? [] : Object.values(scaled))]);
    // Numeric guard: weights that left the finite numbers are replaced by the last good ones.
    if (!(await this.guard.weightsFinite())) throw this.fault('weights');
    this.guard.commit();
    return { loss: loss[0], gradNorm: norm[0] };
  }

  /** Numeric guard: puts the last good weights back, starts Adam afresh and describes the fault. */
  private fault(site: FaultSite): NumericFault {
    this.guard.restore();
    this.optimizer.dispose();
    this.optimizer = new TunableAdam(this.config.lr);
    return new NumericFault(site, this.update, this.config);
  }

  dispose(): void {
    this.guard.dispose();
    this.optimizer.dispose();
    this.policy.dispose();
    this.workers?.dispose();
  }
}
