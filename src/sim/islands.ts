import type { SprintEnv, StructureRules } from './env';
import type { EpisodeStats } from './episodeStats';
import { mixSeed } from './rng';
import { EVAL_SEED_BASE } from './seeds';
import { withCosts } from './costs';
import { generateTask, type Task } from './task';

/**
 * The islands structure (the OpenAI Navier-Stokes swarm): the agents split into groups, each
 * island plays its own variant of the task (another seed of the same family), and the swarm's
 * return is the best island's. An island is one environment rollout (a "cell"), so DMs, the
 * public board, the issue board and the archive stay inside it by construction.
 */

/** How the agents of a swarm split into islands. */
export interface IslandLayout {
  /** Number of islands (at most one per agent). */
  islands: number;
  /** Agents per island, the larger islands first. */
  sizes: number[];
  /** First swarm-wide agent id of each island. */
  offsets: number[];
  /** Agents per environment rollout: the largest island (smaller ones leave the last slot inactive). */
  width: number;
  /** Island of every agent, in swarm order. */
  islandOf: number[];
}

/** Splits `agents` agents into `islands` groups as evenly as possible (islands are capped at `agents`). */
export function islandLayout(agents: number, islands: number): IslandLayout {
  const I = Math.max(1, Math.min(agents, Math.floor(islands)));
  const sizes = Array.from({ length: I }, (_, g) => Math.floor(agents / I) + (g < agents % I ? 1 : 0));
  const offsets: number[] = [];
  const islandOf: number[] = [];
  let o = 0;
  for (let g = 0; g < I; g++) {
    offsets.push(o);
    for (let i = 0; i < sizes[g]; i++) islandOf.push(g);
    o += sizes[g];
  }
  return { islands: I, sizes, offsets, width: sizes[0], islandOf };
}

/**
 * Seed of island g's variant of a task with seed `seed`: island 0 plays the task itself, the others
 * a different seed of the same family, derived deterministically and kept on the same side of the
 * training/evaluation seed split (seeds.ts).
 */
export function variantSeed(seed: number, g: number): number {
  if (g === 0) return seed;
  const side = seed >= EVAL_SEED_BASE ? EVAL_SEED_BASE : 0;
  return side + (mixSeed(seed, 7001 + g) % EVAL_SEED_BASE);
}

/** The task island g plays when the swarm's task is `task`. */
export function islandTask(task: Task, g: number): Task {
  return g === 0 ? task : withCosts(generateTask(task.family, variantSeed(task.seed, g)), task.costs);
}

/**
 * Environment rules of the islands: environment rollout c is island `c % islands` of swarm rollout
 * `floor(c / islands)`. Smaller islands leave their last agent slot inactive; logged agent ids are
 * swarm-wide. When one island passes all its tests the swarm is done, and its other islands stop
 * at the same minute.
 */
export class IslandRules implements StructureRules {
  readonly kind = 'islands' as const;
  constructor(readonly layout: IslandLayout) {}

  reset(env: SprintEnv): void {
    const { islands, sizes, offsets } = this.layout;
    const N = env.N;
    if (env.agentBase?.length !== env.B) env.agentBase = new Int32Array(env.B);
    for (let c = 0; c < env.B; c++) {
      const g = c % islands;
      env.agentBase[c] = offsets[g];
      for (let i = sizes[g]; i < N; i++) env.active[c * N + i] = 0;
    }
  }

  afterStep(env: SprintEnv): void {
    const I = this.layout.islands;
    for (let team = 0; team * I < env.B; team++) {
      let done = false;
      for (let g = 0; g < I; g++) {
        const c = team * I + g;
        if (env.finished[c] && env.passing[c] >= env.totalTests[c]) done = true;
      }
      if (!done) continue;
      for (let g = 0; g < I; g++) {
        const c = team * I + g;
        if (env.finished[c]) continue;
        env.finished[c] = 1;
        env.tEnd[c] = env.t;
      }
    }
  }

  summary(env: SprintEnv, c: number): Record<string, number> {
    return { islandReturn: env.finalReturn(c) };
  }
}

/**
 * Results of each swarm rollout from the results of its `islands` consecutive cells: the best
 * island's return and anytime curve (the best at each minute), the first minute any island reached
 * 90%, the earliest end, and the counters added up over islands.
 */
export function bestIsland(stats: readonly EpisodeStats[], islands: number): EpisodeStats[] {
  const out: EpisodeStats[] = [];
  for (let c = 0; c < stats.length; c += islands) {
    const group = stats.slice(c, c + islands);
    const metrics = { ...group[0].metrics };
    for (const g of group.slice(1)) for (const k of Object.keys(metrics) as (keyof typeof metrics)[]) metrics[k] += g.metrics[k];
    const t90s = group.map((g) => g.t90).filter((x): x is number => x !== null);
    out.push({
      ret: Math.max(...group.map((g) => g.ret)),
      t90: t90s.length ? Math.min(...t90s) : null,
      tEnd: Math.min(...group.map((g) => g.tEnd)),
      metrics,
      curve: group[0].curve.map((_, t) => Math.max(...group.map((g) => g.curve[t]))),
    });
  }
  return out;
}
