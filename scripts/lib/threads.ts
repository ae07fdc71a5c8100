/**
 * How many threads a run trains on (`--threads` of bench:learn and experiment): the checks, TF-free,
 * so a bad command line is answered before TF.js loads. The training itself: shardThreads.ts.
 */
import os from 'node:os';
import type { Config } from '../../src/rl/config';

/** Why `config` cannot train on `threads` threads, or null when it can. */
export function threadsProblem(config: Pick<Config, 'structure' | 'tasksPerUpdate'>, threads: number): string | null {
  if (threads === 1) return null;
  if (config.structure !== 'flat') return `--threads ${threads}: only the flat structure trains on several threads (this run is ${config.structure})`;
  if (threads > config.tasksPerUpdate)
    return `--threads ${threads}: each thread needs a task group of its own, and an update has ${config.tasksPerUpdate} (--tasks-per-update)`;
  return null;
}

/** The threads to train on for `--threads auto`: one per core, at most one per task group, at most 4. */
export function autoThreads(config: Pick<Config, 'structure' | 'tasksPerUpdate'>, cores = os.availableParallelism()): number {
  if (config.structure !== 'flat') return 1;
  return Math.max(1, Math.min(cores, config.tasksPerUpdate, 4));
}
