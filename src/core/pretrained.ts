/**
 * The pretrained swarms the app ships: one run file per task family in `public/pretrained/`,
 * named `<family>.swarmrun.json.gz`. The page offers them in this order (the default first);
 * scripts/commands/experiments/pretrained.test.ts checks that every file is there and reads as a run of its family.
 */
import { defaultConfig, FORMER_BUDGET, FORMER_DEFAULTS, type Config } from '../rl/config';
import { calibratedSchedule, isLongFamily, type Family } from '../sim/task';

/** The task families with a pretrained swarm shipped in `public/pretrained/` (the default first). */
export const PRETRAINED = [
  'long-planned',
  'long-coupled',
  'long-parallel',
  'long-search',
  'long-mixed',
  'coupled',
  'parallel',
  'search',
  'mixed',
] as const satisfies readonly Family[];

/** A task family with a shipped pretrained swarm. */
export type PretrainedFamily = (typeof PRETRAINED)[number];

/**
 * Imitation updates of the scripted organisation before RLCR in a shipped pretrained run of a
 * short family. The long families' swarms have none since the costs of talk became the default: under them
 * a swarm trained on from the prior ended lower than one trained from scratch (docs/HISTORY.md, "second set of rules", 2026-12-02).
 */
export const PRETRAINED_PRIOR = 100;

/** Imitation updates before RLCR in the shipped pretrained run of `family`. */
export function pretrainedPrior(family: Family): number {
  return isLongFamily(family) ? 0 : PRETRAINED_PRIOR;
}

/**
 * The settings a shipped pretrained run was trained with (`npm run pretrain`): the defaults (for a
 * short family, at their former values: `FORMER_DEFAULTS`), the family's calibrated deadline
 * schedule, a short imitation prior for a short family, and 600 RLCR updates for a short family
 * (the file's `config` records the same). long-planned's is the app's default run with seed 1: what
 * Train trains; the other long families' are 300 updates of 4 tasks x 8 rollouts
 * (`FORMER_BUDGET` in rl/config).
 */
export function pretrainedConfig(family: Family, overrides: { updates?: number; prior?: number; seed?: number } = {}): Config {
  const { start, end } = calibratedSchedule(family);
  const base = defaultConfig();
  const long = isLongFamily(family);
  // The budget each was trained at: the default run for the default sprint, the former one for the other long families.
  const budget = !long ? { updates: 600 } : family === base.family ? {} : FORMER_BUDGET;
  return {
    ...base,
    // The short families' swarms were made before the costs of talk became the default.
    ...(long ? {} : FORMER_DEFAULTS),
    ...budget,
    family,
    tmaxStart: start,
    tmaxEnd: end,
    ...(overrides.updates === undefined ? {} : { updates: overrides.updates }),
    prior: overrides.prior ?? pretrainedPrior(family),
    seed: overrides.seed ?? base.seed,
  };
}
