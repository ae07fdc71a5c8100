import { scriptedOrganisation, singleChain } from '../sim/baselines';
import { bestOfN, mean, runEpisodes } from '../sim/evaluate';
import { generateTask, type Family } from '../sim/task';

/** Returns of the reference organisations at one deadline. */
export interface References {
  chain: number;
  bestOfN: number;
  scripted: number;
}

const cache = new Map<string, References>();
const TASKS = 16;

/**
 * The reference organisations' mean return at deadline `tmax` on 16 fixed tasks of the family
 * (simulation only, a few milliseconds; cached).
 */
export async function referencesAt(family: Family, agents: number, tmax: number): Promise<References> {
  const key = `${family}/${agents}/${tmax}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const tasks = Array.from({ length: TASKS }, (_, i) => generateTask(family, 2_000_000_000 + i));
  const ret = async (src: typeof singleChain) => mean((await runEpisodes(src, tasks, agents, 1, tmax)).stats.map((s) => s.ret));
  const r: References = {
    chain: await ret(singleChain),
    bestOfN: mean((await bestOfN(tasks, agents, 1, tmax)).map((s) => s.ret)),
    scripted: await ret(scriptedOrganisation),
  };
  cache.set(key, r);
  return r;
}
