import type { EpisodeStats } from '../sim/episodeStats';
import { std, summariseWork, type WorkSummary } from '../sim/evaluate';

/** The numbers only some organisation structures give, averaged over an update's rollouts. */
export interface StructureMetrics {
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

/** The structure metrics' names, in the order the CLI writes them: the one list the run files and views derive theirs from. */
export const STRUCTURE_METRICS = [
  'headCount',
  'budgetSpent',
  'hires',
  'fires',
  'islandBest',
  'islandMean',
  'criticalSteps',
  'assigns',
  'parallelShare',
  'finishShare',
  'shapingWeight',
] as const satisfies readonly (keyof StructureMetrics)[];
export type StructureMetric = (typeof STRUCTURE_METRICS)[number];
// Fails to compile until every field of StructureMetrics is listed.
type UnlistedMetric = Exclude<keyof StructureMetrics, StructureMetric>;
const everyMetricListed: [UnlistedMetric] extends [never] ? true : UnlistedMetric = true;
void everyMetricListed;

/** What a learn step reports: its first epoch's loss, mean entropy and gradient norm. */
export interface LearnStats {
  loss: number;
  entropy: number;
  gradNorm: number;
}

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
  /** The structure's own numbers (CEO, islands, orchestrator); absent under the flat structure. */
  structure?: StructureMetrics;
}

/**
 * An update's metrics: how its swarm rollouts (`stats`, one per team) worked and talked, what the
 * learn step reported, how long collection and learning took, and the structure's own numbers.
 */
export function updateMetrics(
  at: Pick<UpdateMetrics, 'update' | 'phase' | 'tmax'>,
  stats: EpisodeStats[],
  agents: number,
  learned: LearnStats,
  ms: Pick<UpdateMetrics, 'collectMs' | 'learnMs'>,
  structure: StructureMetrics,
): UpdateMetrics {
  const metrics: UpdateMetrics = {
    ...summariseWork(stats, agents),
    update: at.update,
    phase: at.phase,
    tmax: at.tmax,
    retStd: std(stats.map((s) => s.ret)),
    entropy: learned.entropy,
    loss: learned.loss,
    gradNorm: learned.gradNorm,
    collectMs: ms.collectMs,
    learnMs: ms.learnMs,
  };
  if (Object.keys(structure).length > 0) metrics.structure = { ...structure };
  return metrics;
}
