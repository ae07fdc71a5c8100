import { randomPolicy, scriptedOrganisation } from './baselines';
import type { SprintEnv } from './env';
import type { StructureKind } from './structure';
import { FAMILIES, type Family, type Task } from './task';

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

/**
 * Plays one seeded episode of `env` on `tasks` to the deadline `tmax`, half the rollouts following
 * the scripted organisation (claims, handoffs, finished modules), half acting at random, and calls
 * `visit` at the start of every minute, before the step. Returns the minutes played.
 */
export function playMixedEpisode(env: SprintEnv, tasks: readonly Task[], tmax: number, visit: (minute: number) => void): number {
  env.reset(tasks, 3, tmax);
  const scripted = scriptedOrganisation;
  const random = randomPolicy(5);
  scripted.reset?.(env);
  random.reset?.(env);
  const R = env.B * env.N;
  const a1 = new Int32Array(R);
  const a2 = new Int32Array(R);
  let minutes = 0;
  while (!env.isOver()) {
    visit(minutes);
    scripted.act(env, a1);
    random.act(env, a2);
    for (let r = 0; r < R; r++) if (Math.floor(r / env.N) % 2 === 1) a1[r] = a2[r];
    env.step(a1);
    minutes++;
  }
  return minutes;
}

/** Every family flat, and every structure: the episodes the observation encoders are compared on. */
export const OBSERVATION_CASES: { family: Family; structure: StructureKind; agents: number; islands?: number }[] = [
  ...FAMILIES.map((family) => ({ family, structure: 'flat' as const, agents: 8 })),
  { family: 'long-coupled', structure: 'ceo', agents: 6 },
  { family: 'coupled', structure: 'orchestrator', agents: 5 },
  { family: 'mixed', structure: 'islands', agents: 9, islands: 3 },
  { family: 'mixed', structure: 'flat', agents: 16 },
];
