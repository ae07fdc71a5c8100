/**
 * The pretrained swarms the app ships: one run file per task family in `public/pretrained/`,
 * named `<family>.swarmrun.json.gz`. The page offers them in this order (the default first);
 * scripts/pretrained.test.ts checks that every file is there and reads as a run of its family.
 */
import type { Family } from '../sim/task';

/** The task families with a pretrained swarm shipped in `public/pretrained/` (the default first). */
export const PRETRAINED = [
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
