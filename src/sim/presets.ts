import { CeoRules } from './ceo';
import { SprintEnv, type StructureRules } from './env';
import type { EpisodeStats } from './episodeStats';
import { bestIsland, IslandRules, islandLayout, islandTask, type IslandLayout } from './islands';
import { OrchestratorRules } from './orchestrator';
import type { StructureKind, StructureSettings, StructureView } from './structure';
import { MAX_MODULES, type Task } from './task';

/**
 * How a structure maps the swarm onto the environment. Most structures play one environment
 * rollout per rollout of the swarm; islands play one per island ("cells"), each with its own
 * variant of the task, and the swarm's rollout is the best of them.
 */
export interface Structure {
  readonly settings: StructureSettings;
  readonly kind: StructureKind;
  /** Agents of the whole swarm. */
  readonly agents: number;
  /** Environment rollouts per swarm rollout (the islands; 1 for the other structures). */
  readonly cells: number;
  /** Agents per environment rollout (the largest island; all agents otherwise). */
  readonly envAgents: number;
  /** Island of every agent of the swarm, in swarm order (all 0 without islands). */
  readonly islandOf: number[];
  /** A fresh environment for `rollouts` swarm rollouts, with the rules installed. */
  createEnv(rollouts: number): SprintEnv;
  /** The environment's tasks: each swarm rollout's task expanded to its cells. */
  cellTasks(tasks: readonly Task[]): Task[];
  /** The environment's work-draw streams: each swarm rollout's stream expanded to its cells. */
  cellStreams(streams: ArrayLike<number> | undefined, rollouts: number): ArrayLike<number> | undefined;
  /** Results per swarm rollout from results per environment rollout. */
  teamStats(stats: EpisodeStats[]): EpisodeStats[];
  /** Structure-specific numbers of every swarm rollout of a finished episode. */
  summaries(env: SprintEnv): Record<string, number>[];
  /** Plain view of the logged swarm rollout, which played `task`, for the live views. */
  view(env: SprintEnv, task: Task): StructureView;
}

/** One environment rollout per swarm rollout (flat, CEO, orchestrator). */
class SingleCellStructure implements Structure {
  readonly cells = 1;
  readonly envAgents: number;
  readonly islandOf: number[];
  readonly kind: StructureKind;

  constructor(
    readonly settings: StructureSettings,
    readonly agents: number,
  ) {
    this.kind = settings.structure;
    this.envAgents = agents;
    this.islandOf = new Array<number>(agents).fill(0);
  }

  private makeRules(): StructureRules | null {
    if (this.kind === 'ceo') return new CeoRules(this.settings.budget);
    if (this.kind === 'orchestrator') return new OrchestratorRules();
    return null;
  }

  createEnv(rollouts: number): SprintEnv {
    const env = new SprintEnv(rollouts, this.agents);
    env.rules = this.makeRules();
    return env;
  }

  cellTasks(tasks: readonly Task[]): Task[] {
    return tasks.slice();
  }

  cellStreams(streams: ArrayLike<number> | undefined): ArrayLike<number> | undefined {
    return streams;
  }

  teamStats(stats: EpisodeStats[]): EpisodeStats[] {
    return stats;
  }

  summaries(env: SprintEnv): Record<string, number>[] {
    const rules = env.rules;
    return Array.from({ length: env.B }, (_, b) => rules?.summary?.(env, b) ?? {});
  }

  view(env: SprintEnv): StructureView {
    const rules = env.rules;
    const view: StructureView = { kind: this.kind };
    const b = env.logRollout;
    if (rules instanceof CeoRules) view.headCount = rules.headCurve();
    if (rules instanceof OrchestratorRules && b >= 0) {
      view.criticalSteps = rules.criticalSteps(env, b);
      view.assignment = Array.from({ length: env.N }, (_, j) => {
        for (let k = 0; k < env.M[b]; k++) if (env.claim[b * MAX_MODULES + k] === j && ((env.done[b] >>> k) & 1) === 0) return k;
        return -1;
      });
    }
    return view;
  }
}

/** One environment rollout per island; the swarm's rollout is the best island. */
class IslandStructure implements Structure {
  readonly kind = 'islands' as const;
  readonly cells: number;
  readonly envAgents: number;
  readonly islandOf: number[];
  readonly layout: IslandLayout;

  constructor(
    readonly settings: StructureSettings,
    readonly agents: number,
  ) {
    this.layout = islandLayout(agents, settings.islands);
    this.cells = this.layout.islands;
    this.envAgents = this.layout.width;
    this.islandOf = this.layout.islandOf;
  }

  createEnv(rollouts: number): SprintEnv {
    const env = new SprintEnv(rollouts * this.cells, this.envAgents);
    env.rules = new IslandRules(this.layout);
    return env;
  }

  cellTasks(tasks: readonly Task[]): Task[] {
    const variants = new Map<Task, Task[]>();
    const out: Task[] = [];
    for (const task of tasks) {
      let v = variants.get(task);
      if (!v) {
        v = Array.from({ length: this.cells }, (_, g) => islandTask(task, g));
        variants.set(task, v);
      }
      out.push(...v);
    }
    return out;
  }

  cellStreams(streams: ArrayLike<number> | undefined, rollouts: number): ArrayLike<number> {
    const I = this.cells;
    return Int32Array.from({ length: rollouts * I }, (_, c) => (streams ? streams[Math.floor(c / I)] : Math.floor(c / I)) * I + (c % I));
  }

  teamStats(stats: EpisodeStats[]): EpisodeStats[] {
    return bestIsland(stats, this.cells);
  }

  summaries(env: SprintEnv): Record<string, number>[] {
    const I = this.cells;
    const out: Record<string, number>[] = [];
    for (let c = 0; c < env.B; c += I) {
      const rets = Array.from({ length: I }, (_, g) => env.finalReturn(c + g));
      out.push({ islandBest: Math.max(...rets), islandMean: rets.reduce((a, r) => a + r, 0) / I });
    }
    return out;
  }

  view(_env: SprintEnv, task: Task): StructureView {
    return { kind: this.kind, islandOf: this.islandOf.slice(), islandTasks: Array.from({ length: this.cells }, (_, g) => islandTask(task, g)) };
  }
}

/**
 * The structure for `settings` and a swarm of `agents` agents. Islands are capped at one per agent;
 * the others ignore the settings they do not use.
 */
export function createStructure(settings: StructureSettings, agents: number): Structure {
  if (settings.structure === 'islands') return new IslandStructure(settings, agents);
  return new SingleCellStructure(settings, agents);
}
