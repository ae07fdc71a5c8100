import { Rng } from './rng';

/** Hard limits of the fixed-size observation and action encodings. */
export const MAX_MODULES = 12;
export const MAX_AGENTS = 16;

/**
 * Task families. Each one favours a different organisation:
 * - `parallel`: independent modules; silent division of labour wins.
 * - `coupled`: shallow dependency trees with wide fan-out; handing interfaces over pays.
 * - `search`: a chain of modules that each finish by luck; independent attempts with selection win.
 * - `mixed`: some of each.
 */
export const FAMILIES = ['parallel', 'coupled', 'search', 'mixed'] as const;
export type Family = (typeof FAMILIES)[number];

/** One software sprint: M modules, each with work, tests and at most one prerequisite. */
export interface Task {
  family: Family;
  seed: number;
  /** Number of modules, 1..MAX_MODULES. */
  modules: number;
  /** Nominal agent-minutes of work per module; the real work of an attempt varies around it. */
  work: Int32Array;
  /** Tests each module carries; they pass in proportion to its completed work. */
  tests: Int32Array;
  /** Prerequisite module whose interface is needed to work on this one, or -1. */
  dep: Int32Array;
  /** For luck modules: chance that one minute of work finishes the module (0 = ordinary work). */
  luck: Float32Array;
  /** Relative spread of the real work per attempt (0.25 = plus or minus 25 percent). */
  spread: number;
}

function emptyTask(family: Family, seed: number, modules: number, spread: number): Task {
  return {
    family,
    seed,
    modules,
    work: new Int32Array(modules),
    tests: new Int32Array(modules),
    dep: new Int32Array(modules).fill(-1),
    luck: new Float32Array(modules),
    spread,
  };
}

function fillWorkAndTests(task: Task, rng: Rng, from: number, to: number, minWork = 3, maxWork = 8): void {
  for (let k = from; k < to; k++) {
    task.work[k] = rng.int(minWork, maxWork);
    task.tests[k] = rng.int(1, 5);
  }
}

/** Dependency trees of depth <= 2 grown from `roots` roots, over modules [from, to). */
function growTrees(task: Task, rng: Rng, from: number, to: number, roots: number): void {
  const level = new Int32Array(task.modules);
  for (let k = from + roots; k < to; k++) {
    const parents: number[] = [];
    for (let p = from; p < k; p++) if (level[p] < 2) parents.push(p);
    const parent = rng.pick(parents);
    task.dep[k] = parent;
    level[k] = level[parent] + 1;
  }
}

/** A chain of luck modules over [from, to): each needs the previous one's interface. */
function luckChain(task: Task, rng: Rng, from: number, to: number): void {
  for (let k = from; k < to; k++) {
    task.work[k] = 1;
    task.luck[k] = rng.range(0.15, 0.35);
    task.tests[k] = rng.int(2, 5);
    if (k > from) task.dep[k] = k - 1;
  }
}

/** Generates the task of `family` for `seed`; the same pair always gives the same task. */
export function generateTask(family: Family, seed: number): Task {
  const rng = new Rng(seed, FAMILIES.indexOf(family) + 1);
  switch (family) {
    case 'parallel': {
      const t = emptyTask(family, seed, 12, 0.25);
      fillWorkAndTests(t, rng, 0, 12, 7, 15);
      return t;
    }
    case 'coupled': {
      const t = emptyTask(family, seed, 12, 0.25);
      fillWorkAndTests(t, rng, 0, 12);
      growTrees(t, rng, 0, 12, rng.int(1, 2));
      return t;
    }
    case 'search': {
      const t = emptyTask(family, seed, 6, 0);
      luckChain(t, rng, 0, 6);
      return t;
    }
    case 'mixed': {
      const t = emptyTask(family, seed, 12, 0.25);
      fillWorkAndTests(t, rng, 0, 9);
      growTrees(t, rng, 3, 9, 1);
      luckChain(t, rng, 9, 12);
      return t;
    }
  }
}

/** Sum of nominal work over all modules, in agent-minutes (luck modules count their expectation). */
export function totalWork(task: Task): number {
  let s = 0;
  for (let k = 0; k < task.modules; k++) s += task.luck[k] > 0 ? 1 / task.luck[k] : task.work[k];
  return s;
}
