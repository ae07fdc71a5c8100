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
