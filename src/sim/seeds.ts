import { generateTask, type Family, type Task } from './task';

/**
 * The split of task seeds between training and evaluation: training draws its tasks below
 * EVAL_SEED_BASE (rl/trainer `trainingTaskSeed`), the fresh evaluation tasks and the race's tasks
 * sit at and above it, and an island's variant of a task stays on its task's side.
 */
export const EVAL_SEED_BASE = 1_000_000_000;

/** Seed of the i-th evaluation task: disjoint from every training seed. */
export function evaluationSeed(i: number): number {
  return EVAL_SEED_BASE + i;
}

/** The first `count` evaluation tasks of `family`: what the swarm, the references and the race are scored on. */
export function evaluationTasks(family: Family, count: number): Task[] {
  return Array.from({ length: count }, (_, i) => generateTask(family, evaluationSeed(i)));
}
