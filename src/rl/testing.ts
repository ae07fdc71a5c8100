import { defaultConfig, type Config } from './config';
import type { SwarmPolicy } from './policy';

/** A run small enough for a test to train a few updates of it in a second or two (long-coupled tasks, 4 agents, 16 minutes). */
export const TINY_RUN: Config = {
  ...defaultConfig(),
  agents: 4,
  tasksPerUpdate: 2,
  groupSize: 4,
  updates: 3,
  tmaxStart: 16,
  tmaxEnd: 16,
  hidden: 16,
  scorer: 8,
};

/** Every weight of a policy, flattened in `vars` order: what tests compare to say two trainers hold the same weights. */
export async function policyWeights(policy: SwarmPolicy): Promise<number[]> {
  const parts = await Promise.all(Object.values(policy.vars).map((v) => v.data()));
  return parts.flatMap((p) => Array.from(p));
}
