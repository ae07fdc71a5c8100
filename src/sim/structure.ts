import type { SprintEnv } from './env';
import type { EpisodeStats } from './evaluate';
import type { Task } from './task';

/**
 * Organisation presets: ways a human team can be organised, offered beside the flat swarm (see
 * docs/ENGINE.md, "Structures"). Structure is a prior, not a role:
 * - `flat`: every agent may DM every agent; board, issue board and archive are open to all;
 * - `ceo`: agent 0 hires and fires the others within a compute budget (agent-minutes);
 * - `islands`: groups that each play their own variant of the task; the best island counts;
 * - `orchestrator`: agent 0 is trained and assigns modules; the workers run a frozen policy.
 */
export const STRUCTURES = ['flat', 'ceo', 'islands', 'orchestrator'] as const;
export type StructureKind = (typeof STRUCTURES)[number];

/** What the orchestrator's workers run: the scripted worker, or a frozen snapshot of the policy. */
export const WORKER_POLICIES = ['scripted', 'snapshot'] as const;
export type WorkerPolicy = (typeof WORKER_POLICIES)[number];

/** The settings the simulator reads for a structure (a subset of the run's config). */
export interface StructureSettings {
  structure: StructureKind;
  /** CEO: compute budget in agent-minutes; every active agent spends one per minute. */
  budget: number;
  /** Islands: number of groups (at most one per agent). */
  islands: number;
}

/**
 * Rules a structure installs on an environment (`env.rules`). The environment calls them at fixed
 * points of an episode; a flat environment has none, so its behaviour is untouched.
 */
export interface StructureRules {
  readonly kind: StructureKind;
  /** Called at the end of `env.reset`: (re)allocates per-rollout state, sets who is active. */
  reset(env: SprintEnv): void;
  /**
   * An active agent's action, before the environment applies it. Returns true if the rules took
   * the action (it used the agent's minute and the environment does nothing more with it).
   */
  act?(env: SprintEnv, b: number, i: number, a: number, logging: boolean): boolean;
  /**
   * A DM from i to j of rollout b is being delivered. Returns the module whose claim it hands over
   * with it (an assignment, logged as `assign`), or -1 for a plain DM.
   */
  assignWith?(env: SprintEnv, b: number, i: number, j: number): number;
  /** Called once after every rollout played a minute (`env.t` already counts it). */
  afterStep?(env: SprintEnv): void;
  /** Adjusts the legal-action mask of active agent i of running rollout b, written at `out[base..]`. */
  mask?(env: SprintEnv, b: number, i: number, out: Float32Array, base: number): void;
  /** Adjusts the observations written by `encodeObservations` (same layout and offset). */
  observe?(env: SprintEnv, out: Float32Array, offset: number): void;
  /**
   * The same adjustment on the shared blocks of `encodeSharedObservations` (observeShared.ts):
   * rollout b's block, the dense layout's global block and module rows as every agent sees them,
   * starts at `out[offset + b * stride]`. Rules with `observe` must have it, and may change there
   * only what every agent of a rollout shares.
   */
  observeShared?(env: SprintEnv, out: Float32Array, offset: number, stride: number): void;
  /** Structure-specific numbers of rollout b after its episode (e.g. head count, critical steps). */
  summary?(env: SprintEnv, b: number): Record<string, number>;
  /** Per-minute head count of the logged rollout, if the structure changes it. */
  headCurve?(env: SprintEnv): number[];
}

/** True if rollout b played the minute that just ended (it was running when the minute began). */
export function playedLastMinute(env: SprintEnv, b: number): boolean {
  return env.finished[b] === 0 || env.tEnd[b] === env.t;
}

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

/** What the live views need to draw a structure for the showcase rollout. */
export interface StructureView {
  kind: StructureKind;
  /** Islands: the island of every agent, in swarm order. */
  islandOf?: number[];
  /** Islands: the task each island played (island 0 plays the showcase task). */
  islandTasks?: Task[];
  /** CEO: agents active in each minute played. */
  headCount?: number[];
  /** Orchestrator: module assigned to each agent at the end (-1 for none; index 0 is the orchestrator). */
  assignment?: number[];
  /** Orchestrator: critical steps of the showcase rollout. */
  criticalSteps?: number;
}
