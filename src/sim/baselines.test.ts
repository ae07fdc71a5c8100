import { describe, expect, it } from 'vitest';
import { actionKind } from './actions';
import { randomPolicy, scriptedOrganisation, singleChain } from './baselines';
import { bestOfN, mean, runEpisodes } from './evaluate';
import { generateTask, type Family } from './task';

const tasks = (f: Family) => Array.from({ length: 24 }, (_, i) => generateTask(f, 500 + i));
const ret = async (src: Parameters<typeof runEpisodes>[0], f: Family, tmax: number) =>
  mean((await runEpisodes(src, tasks(f), 8, 1, tmax)).stats.map((s) => s.ret));

describe('reference organisations', () => {
  it('single chain lets only agent 0 act', async () => {
    const run = await runEpisodes(singleChain, tasks('coupled').slice(0, 1), 4, 1, 20, 0);
    expect(run.events.filter((e) => e.kind !== 'idle' && e.agent !== 0 && e.kind !== 'complete')).toEqual([]);
    expect(run.stats[0].ret).toBeGreaterThan(0);
  });

  it('on coupled tasks the scripted organisation beats best-of-N, which beats the single chain', async () => {
    const chain = await ret(singleChain, 'coupled', 24);
    const org = await ret(scriptedOrganisation, 'coupled', 24);
    const best = mean((await bestOfN(tasks('coupled'), 8, 1, 24)).map((s) => s.ret));
    expect(org).toBeGreaterThan(best + 0.2);
    expect(best).toBeGreaterThan(chain);
  });

  it('on search tasks best-of-N beats the talking organisation', async () => {
    const org = await ret(scriptedOrganisation, 'search', 20);
    const best = mean((await bestOfN(tasks('search'), 8, 1, 20)).map((s) => s.ret));
    expect(best).toBeGreaterThan(org + 0.1);
  });

  it('the scripted organisation hands interfaces over on coupled tasks and stays silent on parallel ones', async () => {
    const coupled = await runEpisodes(scriptedOrganisation, tasks('coupled'), 8, 1, 24);
    const parallel = await runEpisodes(scriptedOrganisation, tasks('parallel'), 8, 1, 24);
    expect(mean(coupled.stats.map((s) => s.metrics.handoffs))).toBeGreaterThan(2);
    expect(mean(parallel.stats.map((s) => s.metrics.dms + s.metrics.posts))).toBe(0);
    expect(mean(coupled.stats.map((s) => s.metrics.duplicate))).toBe(0);
  });

  it('random play is legal and worse than the organisation on coupled tasks', async () => {
    const run = await runEpisodes(randomPolicy(2), tasks('coupled').slice(0, 2), 8, 1, 24, 0);
    expect(run.events.every((e) => e.kind !== 'dm' || e.target !== e.agent)).toBe(true);
    expect(new Set(run.events.map((e) => e.kind)).size).toBeGreaterThan(5);
    expect(await ret(randomPolicy(2), 'coupled', 24)).toBeLessThan(await ret(scriptedOrganisation, 'coupled', 24));
    expect(actionKind(0)).toBe(0);
  });
});
