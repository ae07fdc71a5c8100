import type { Task } from './task';

/**
 * A hand-made task for tests and examples: `work[k]`, `tests[k]`, `dep[k]` (-1 for none),
 * no work spread, no luck unless given; `handoff` turns on the handoff rule (Task.handoff).
 */
export function handTask(work: number[], tests: number[], dep: number[], luck: number[] = [], handoff = false): Task {
  const M = work.length;
  return {
    family: 'coupled',
    seed: 0,
    modules: M,
    work: Int32Array.from(work),
    tests: Int32Array.from(tests),
    dep: Int32Array.from(dep),
    luck: Float32Array.from({ length: M }, (_, k) => luck[k] ?? 0),
    spread: 0,
    handoff,
  };
}
