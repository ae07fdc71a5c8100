/**
 * What a run file holds: the format's name and version and the types of its fields, as written by
 * the recorder, read by runFile.ts and checked by runChecks.ts. The format is described field by
 * field in docs/RUNFILE.md. Types only, plus the two constants every file carries.
 */
import type { References } from '../rl/compare';
import type { Config } from '../rl/config';
import type { PolicyJSON } from '../rl/policy';
import type { DeadlineSchedule } from '../rl/schedule';
import type { UpdateMetrics } from '../rl/metrics';
import type { SimEvent } from '../sim/events';

/** The `format` field every run file carries. */
export const RUN_FORMAT = 'swarm-run';
/** The format version this build writes; it reads this one and version 1 (see docs/RUNFILE.md, "Version policy"). */
export const RUN_VERSION = 2;

/** One module of the showcase task as the views need it. */
export interface ModuleInfo {
  tests: number;
  /** Prerequisite module, or -1. */
  dep: number;
  /** Real work of this attempt, in agent-minutes (1 for a luck module). */
  work: number;
  /** Finishes by luck (tests pass only on completion). */
  luck: boolean;
}

/** How an organisation structure shaped the showcase rollout (absent under the flat structure). */
export interface StructureInfo {
  kind: 'ceo' | 'islands' | 'orchestrator';
  /** Islands: the island of every agent, in swarm order. */
  islandOf?: number[];
  /** CEO: agents active in each minute played. */
  headCount?: number[];
  /** Orchestrator: module assigned to each agent at the end (-1 for none; index 0 is the orchestrator). */
  assignment?: number[];
  /** Orchestrator: critical steps of the rollout (per stage, the orchestrator's minutes plus the slowest worker's). */
  criticalSteps?: number;
}

/** One recorded showcase rollout: what the live views showed after update `update`. */
export interface ShowcaseEpisode {
  /** Index of the update (0-based) whose showcase rollout this is. */
  update: number;
  /** The deadline the rollout was cut at (minutes). */
  tmax: number;
  /** Every action, collision, block and completion of the rollout, in minute order. */
  events: SimEvent[];
  /** The showcase task's modules with this attempt's real work. */
  modules: ModuleInfo[];
  /** The reference organisations' mean return at this deadline. */
  references: References;
  /** The structure's part of the rollout (head count, islands, assignments); absent when flat. */
  structure?: StructureInfo;
}

/**
 * Which items of a growing sequence are kept: those whose position is a multiple of `stride`, plus
 * the latest one. `stride` starts at `every` and doubles whenever more than `maxKept` multiples
 * would be kept, so at most `maxKept + 1` items are held however long the run.
 */
export interface ThinningRule {
  /** The first stride (1: keep everything while there is room). */
  every: number;
  /** Most items kept at multiples of the stride (the latest item comes on top). */
  maxKept: number;
  /** The stride in force when the file was written (`every` times a power of two). */
  stride: number;
}

/** Policy weights after `updates` updates (`SwarmPolicy.toJSON` output; load with `SwarmPolicy.fromJSON`). */
export interface Checkpoint {
  /** Updates done (imitation and RLCR together) when the weights were taken. */
  updates: number;
  weights: PolicyJSON;
}

/** A change of settings in the middle of a run (the app's sliders). */
export interface ConfigChange {
  /** The first update (0-based index) that ran with `config`. */
  update: number;
  config: Config;
}

/**
 * What the swarm's talk was worth after `updates` updates: the policy as it was then, played on
 * `tasks` fresh evaluation tasks at deadline `tmax`, once as it is and once muted (its DMs, posts
 * and reads masked out; rl/compare `talkValue`). What talk adds is `ret - muted`.
 */
export interface TalkRecord {
  /** Updates done when it was measured (0: before training). */
  updates: number;
  /** The deadline the evaluation episodes were cut at (the run's final deadline, `tmaxEnd`). */
  tmax: number;
  /** Fresh evaluation tasks played (each once talking, once muted). */
  tasks: number;
  /** Mean return talking: the share of tests passing at the deadline. */
  ret: number;
  /** Mean return muted. */
  muted: number;
  /** Share of the deliveries (DMs and board reads) that brought the receiver an interface it lacked and needed. */
  neededShare: number;
  /** Messages (DMs + posts) per episode, talking. */
  messages: number;
  /** Useful agent-minutes per episode, talking (work that advanced a module). Absent in runs recorded before it was kept. */
  useful?: number;
  /** Duplicate agent-minutes per episode, talking (a second agent on a module in the same minute). Absent before it was kept. */
  duplicate?: number;
  /** The scripted organisation's mean return on the same tasks, seed and deadline: what coordination is measured against (sim/coordination.ts). Absent before it was kept. */
  scripted?: number;
}

/** A training run as stored in a run file (format `swarm-run`, version 2). */
export interface RunFile {
  format: typeof RUN_FORMAT;
  version: typeof RUN_VERSION;
  /** Display name, 1 to MAX_NAME_LENGTH characters of plain text (any characters, never markup). */
  name: string;
  /** When the run was recorded, ISO 8601 in UTC (`Date.toISOString()`). */
  created: string;
  /** The settings the run started with. */
  config: Config;
  /** The run's seed (equal to `config.seed`, repeated for readers that skip the config). */
  seed: number;
  /** The deadline schedule the run started with (equal to `scheduleOf(config)`). */
  schedule: DeadlineSchedule;
  /** Settings changed while training, in update order; the deadline actually used is in `metrics[i].tmax`. */
  configChanges: ConfigChange[];
  /** Updates planned when the file was written (imitation + RLCR). */
  totalUpdates: number;
  /** Every update's numbers, consecutive from the first recorded update. */
  metrics: UpdateMetrics[];
  /** Showcase episodes of updates kept by `rule` (update indices). */
  episodes: { rule: ThinningRule; items: ShowcaseEpisode[] };
  /** Policy checkpoints kept by `rule` (positions are `updates`). */
  checkpoints: { rule: ThinningRule; items: Checkpoint[] };
  /** What talk was worth, measured now and then while training (strictly increasing `updates`); absent when never measured. */
  talk?: TalkRecord[];
}
