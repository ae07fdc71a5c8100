import { scriptedOrganisation } from '../sim/baselines';
import { CeoRules, scriptedCeo } from '../sim/ceo';
import type { SprintEnv } from '../sim/env';
import { orchestrated, OrchestratorRules, scriptedOrchestrator, scriptedWorkers } from '../sim/orchestrator';
import type { ActionSource } from '../sim/actionSource';
import { createStructure, type Structure } from '../sim/presets';
import { mixSeed } from '../sim/rng';
import type { StructureSettings, StructureView } from '../sim/structure';
import { anyCost, type SprintCosts } from '../sim/costs';
import type { Task } from '../sim/task';
import type { Teams } from './advantages';
import { costsOf, type Config } from './config';
import type { StructureMetrics } from './metrics';
import type { SwarmPolicy } from './policy';
import type { Batch, CollectHooks } from './rollout';
import { FrozenWorkers, type WorkerSpec } from './frozenWorkers';

/**
 * What an organisation structure changes in training, behind one interface, so the trainer's update
 * reads as the algorithm of docs/ENGINE.md. The flat swarm is this class itself: no hooks, the
 * scripted organisation as the prior, the batch's own returns, no extra metrics. The CEO, islands
 * and orchestrator override what they change.
 */
export class TrainingStructure {
  /** How the structure maps the swarm onto the environment. */
  readonly structure: Structure;
  /** The orchestrator's workers (null for the other structures). */
  readonly workers: FrozenWorkers | null = null;

  constructor(config: Config) {
    this.structure = createStructure(config, config.agents);
  }

  /** Sets the structure up for update `u` on `env`; how collection differs (none when flat). */
  prepare(_env: SprintEnv, _u: number, _config: Config): CollectHooks | undefined {
    return undefined;
  }

  /** What the imitation prior imitates: the scripted organisation, or the structure's scripted version. */
  behaviour(): ActionSource {
    return scriptedOrganisation;
  }

  /** Weight of a shaping reward in update `u` (only the orchestrator has one). */
  shapingWeight(_u: number, _config: Config): number {
    return 0;
  }

  /** Per swarm rollout of the last episode: a bonus added to its return before the advantages, or null. */
  bonus(_env: SprintEnv, _weight: number): Float32Array | null {
    return null;
  }

  /** The batch's outcome per swarm rollout. */
  teams(batch: Batch): Teams {
    return { I: 1, returns: batch.returns, tEnd: batch.tEnd, history: batch.history };
  }

  /** The structure's own numbers about the last episode, averaged over its rollouts (none when flat). */
  metrics(_env: SprintEnv, _shaping: number): StructureMetrics {
    return {};
  }

  /** What the live views draw of the structure for the showcase rollout (none when flat). */
  view(_env: SprintEnv, _task: Task): StructureView | undefined {
    return undefined;
  }

  /** The organisation the trained swarm plays in an evaluation (structure, and the orchestrator's workers). */
  evaluationSetup(config: Config): { structure: StructureSettings; workers?: WorkerSpec; costs?: SprintCosts } {
    const structure: StructureSettings = { structure: config.structure, budget: config.budget, islands: config.islands };
    const workers = this.workers?.spec;
    const costs = costsOf(config);
    return { structure, ...(workers ? { workers } : {}), ...(anyCost(costs) ? { costs } : {}) };
  }

  dispose(): void {
    this.workers?.dispose();
  }
}

/** The structures other than flat: the showcase logs every cell, and their summaries become metrics. */
class StructuredTraining extends TrainingStructure {
  override prepare(_env: SprintEnv, _u: number, _config: Config): CollectHooks | undefined {
    return { logCount: this.structure.cells };
  }

  override metrics(env: SprintEnv, _shaping: number): StructureMetrics {
    const rows = this.structure.summaries(env);
    const out: Record<string, number> = {};
    for (const row of rows) for (const [k, v] of Object.entries(row)) out[k] = (out[k] ?? 0) + v / rows.length;
    return out; // the structures' summaries are named after the metrics
  }

  override view(env: SprintEnv, task: Task): StructureView {
    return this.structure.view(env, task);
  }
}

/** The CEO hires and fires within a budget the user may change mid-run. */
class CeoTraining extends StructuredTraining {
  override prepare(env: SprintEnv, u: number, config: Config): CollectHooks | undefined {
    if (env.rules instanceof CeoRules) env.rules.budget = config.budget;
    return super.prepare(env, u, config);
  }

  override behaviour(): ActionSource {
    return scriptedCeo;
  }
}

/** Islands: a swarm rollout is its best island (its return, its earliest end, its anytime curve). */
class IslandsTraining extends StructuredTraining {
  override teams(batch: Batch): Teams {
    const I = this.structure.cells;
    if (I === 1) return super.teams(batch);
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
}

/** The orchestrator is trained; its workers play a frozen policy, and a shaping reward may help early on. */
class OrchestratorTraining extends StructuredTraining {
  override readonly workers: FrozenWorkers;
  private prior: ActionSource | null = null;

  constructor(config: Config, policy: SwarmPolicy) {
    super(config);
    this.workers = new FrozenWorkers(config.workerPolicy, config.snapshotAt, policy);
  }

  override prepare(env: SprintEnv, u: number, config: Config): CollectHooks | undefined {
    const hooks = super.prepare(env, u, config)!;
    if (this.workers.prepare(u, mixSeed(mixSeed(config.seed, 3 + u), 17))) {
      hooks.workers = this.workers;
      hooks.learners = Uint8Array.from({ length: env.N }, (_, i) => (i === 0 ? 1 : 0));
    }
    return hooks;
  }

  override behaviour(): ActionSource {
    return (this.prior ??= orchestrated(scriptedOrchestrator, scriptedWorkers));
  }

  /**
   * `shaping` x (1 - r / anneal) for the r-th RLCR update, where anneal is `shapingAnneal` (or all
   * RLCR updates when 0); never below 0.
   */
  override shapingWeight(u: number, c: Config): number {
    if (c.shaping <= 0) return 0;
    const anneal = c.shapingAnneal > 0 ? c.shapingAnneal : c.updates;
    return c.shaping * Math.max(0, 1 - Math.max(0, u - c.prior) / anneal);
  }

  /**
   * `weight` x the mean of the share of workers that got an assignment (parallel work) and the share
   * of assigned modules finished (Kimi Agent Swarm's PARL shaping). Null when the weight is 0.
   */
  override bonus(env: SprintEnv, weight: number): Float32Array | null {
    const rules = env.rules;
    if (weight <= 0 || !(rules instanceof OrchestratorRules)) return null;
    return Float32Array.from({ length: env.B }, (_, b) => (weight * (rules.parallelShare(env, b) + rules.finishShare(env, b))) / 2);
  }

  override metrics(env: SprintEnv, shaping: number): StructureMetrics {
    return { ...super.metrics(env, shaping), shapingWeight: shaping };
  }
}

/** The training side of the config's organisation structure. */
export function trainingStructure(config: Config, policy: SwarmPolicy): TrainingStructure {
  switch (config.structure) {
    case 'ceo':
      return new CeoTraining(config);
    case 'islands':
      return new IslandsTraining(config);
    case 'orchestrator':
      return new OrchestratorTraining(config, policy);
    default:
      return new TrainingStructure(config);
  }
}
