import type { SprintCosts } from './costs';
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
 *
 * The `long-*` families are the same four kinds of sprint at a long horizon (about 100 minutes at
 * the final deadline) under the handoff rule (`Task.handoff`): an interface is known only to the
 * agent who finished the module until it is handed over. Their modules are larger, the dependency
 * trees deeper, and the tests sit mostly on the features at the end of the chains, not on the
 * foundations they build on (docs/ENGINE.md). `long-planned` is a coupled sprint planned to the
 * team's capacity: a few short foundations and one long feature on them for every agent of eight,
 * so that a minute spent on somebody else's module is a minute missing from one's own.
 */
export const FAMILIES = ['parallel', 'coupled', 'search', 'mixed', 'long-coupled', 'long-parallel', 'long-search', 'long-mixed', 'long-planned'] as const;
export type Family = (typeof FAMILIES)[number];

/** The short families, the first ones (short horizon, interfaces shared by everyone who worked on a module). */
export const SHORT_FAMILIES = ['parallel', 'coupled', 'search', 'mixed'] as const satisfies readonly Family[];
/** The long-horizon families under the handoff rule. */
export const LONG_FAMILIES = ['long-coupled', 'long-parallel', 'long-search', 'long-mixed', 'long-planned'] as const satisfies readonly Family[];

/**
 * The deadline schedule a family is calibrated for: start and final deadline in minutes (the
 * scripted organisation of 8 agents needs about the final one). A race at equal compute gives the
 * N-agent organisations three times the final deadline.
 */
export function calibratedSchedule(family: Family): { start: number; end: number } {
  if (family === 'long-planned') return { start: 20, end: PLANNED_DEADLINE };
  return isLongFamily(family) ? { start: 20, end: 80 } : { start: 8, end: 24 };
}

/** Whether a family is one of the long-horizon families. */
export function isLongFamily(family: Family): boolean {
  return (LONG_FAMILIES as readonly Family[]).includes(family);
}

/** The kind of work a family's tasks are made of, whatever their horizon: one entry per family. */
const KIND: Record<Family, 'parallel' | 'coupled' | 'search' | 'mixed'> = {
  parallel: 'parallel',
  coupled: 'coupled',
  search: 'search',
  mixed: 'mixed',
  'long-coupled': 'coupled',
  'long-parallel': 'parallel',
  'long-search': 'search',
  'long-mixed': 'mixed',
  'long-planned': 'coupled',
};

/** The kind of work a family's tasks are made of, whatever their horizon. */
export function familyKind(family: Family): 'parallel' | 'coupled' | 'search' | 'mixed' {
  return KIND[family];
}

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
  /**
   * The handoff rule. When true, finishing a module teaches its interface only to the agent whose
   * minute finished it (teammates who worked on it earlier or collided learn nothing); everyone else
   * needs a DM or the board. When false (the short families), every agent who ever worked on
   * the module learns its interface when it is finished.
   */
  handoff: boolean;
  /** Optional costs of talk and of piling on (sim/costs.ts); absent: none, the families' own rules. */
  costs?: SprintCosts;
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
    handoff: isLongFamily(family),
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
function luckChain(task: Task, rng: Rng, from: number, to: number, luck: [number, number] = [0.15, 0.35]): void {
  for (let k = from; k < to; k++) {
    task.work[k] = 1;
    task.luck[k] = rng.range(luck[0], luck[1]);
    task.tests[k] = rng.int(2, 5);
    if (k > from) task.dep[k] = k - 1;
  }
}

/**
 * Long-horizon dependency trees over [from, to): `roots` foundations, then each module builds on a
 * random earlier module less than `depth` levels deep. Work grows and tests pile up with depth:
 * foundations carry few tests of their own, the features at the ends of the chains carry most.
 */
function growLongTrees(task: Task, rng: Rng, from: number, to: number, roots: number, depth: number): void {
  const level = new Int32Array(task.modules);
  for (let k = from; k < to; k++) {
    if (k >= from + roots) {
      const parents: number[] = [];
      for (let p = from; p < k; p++) if (level[p] < depth) parents.push(p);
      const parent = rng.pick(parents);
      task.dep[k] = parent;
      level[k] = level[parent] + 1;
    }
    task.work[k] = rng.int(LONG.work[0], LONG.work[1]);
    task.tests[k] = rng.int(1, 2) + LONG.testsPerLevel * level[k];
  }
}

/** The long families' sizes (docs/ENGINE.md): modules' work, tests per level of depth, luck per minute. */
export const LONG = {
  work: [10, 22] as [number, number],
  parallelWork: [28, 50] as [number, number],
  testsPerLevel: 2,
  luck: [0.04, 0.09] as [number, number],
};

/**
 * long-planned (docs/ENGINE.md): `foundations` short modules with `foundationTests` tests each, and
 * on each of the rest one foundation's interface; those features carry `featureTests` tests each, so
 * the tests pass steadily while a feature is built. About 496 agent-minutes of nominal work: 86% of
 * eight agents' 576 at its final deadline of 72 minutes (`PLANNED_DEADLINE`).
 */
export const PLANNED = {
  foundations: 4,
  foundationWork: [6, 10] as [number, number],
  featureWork: [52, 64] as [number, number],
  foundationTests: 2,
  featureTests: 12,
};

/**
 * long-planned's final deadline: the scripted organisation of 8 agents passes about 95% of the tests
 * by then (90% after about 66 minutes), so the deadline binds and every agent-minute of waste costs.
 */
export const PLANNED_DEADLINE = 72;

/** Fills a long-planned task: foundations first, then the features, each on a foundation drawn at random. */
function planToCapacity(task: Task, rng: Rng): void {
  for (let k = 0; k < task.modules; k++) {
    if (k < PLANNED.foundations) {
      task.work[k] = rng.int(PLANNED.foundationWork[0], PLANNED.foundationWork[1]);
      task.tests[k] = PLANNED.foundationTests;
    } else {
      task.dep[k] = rng.int(0, PLANNED.foundations - 1);
      task.work[k] = rng.int(PLANNED.featureWork[0], PLANNED.featureWork[1]);
      task.tests[k] = PLANNED.featureTests;
    }
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
    case 'long-coupled': {
      const t = emptyTask(family, seed, 12, 0.25);
      growLongTrees(t, rng, 0, 12, rng.int(1, 2), 3);
      return t;
    }
    case 'long-parallel': {
      const t = emptyTask(family, seed, 12, 0.25);
      fillWorkAndTests(t, rng, 0, 12, LONG.parallelWork[0], LONG.parallelWork[1]);
      return t;
    }
    case 'long-search': {
      const t = emptyTask(family, seed, 6, 0);
      luckChain(t, rng, 0, 6, LONG.luck);
      return t;
    }
    case 'long-mixed': {
      const t = emptyTask(family, seed, 12, 0.25);
      growLongTrees(t, rng, 0, 9, 2, 2);
      luckChain(t, rng, 9, 12, LONG.luck);
      return t;
    }
    case 'long-planned': {
      const t = emptyTask(family, seed, 12, 0.25);
      planToCapacity(t, rng);
      return t;
    }
    default:
      throw new RangeError(`unknown task family "${String(family)}" (one of ${FAMILIES.join(', ')})`);
  }
}

/** Sum of nominal work over all modules, in agent-minutes (luck modules count their expectation). */
export function totalWork(task: Task): number {
  let s = 0;
  for (let k = 0; k < task.modules; k++) s += task.luck[k] > 0 ? 1 / task.luck[k] : task.work[k];
  return s;
}
