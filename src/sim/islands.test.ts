import { describe, expect, it } from 'vitest';
import { A_DM, A_IDLE, A_POST, A_READ, dm, NUM_ACTIONS, work } from './actions';
import { scriptedOrganisation, singleChain } from './baselines';
import { collectStats, runEpisodes } from './evaluate';
import { islandLayout, islandTask, variantSeed } from './islands';
import { encodeMasks } from './observe';
import { createStructure } from './presets';
import { generateTask } from './task';
import { handTask } from './testing';

const islands = (n: number) => ({ structure: 'islands' as const, budget: 1, islands: n });

describe('islands structure', () => {
  it('splits the agents as evenly as possible, at most one island per agent', () => {
    expect(islandLayout(8, 3)).toEqual({ islands: 3, sizes: [3, 3, 2], offsets: [0, 3, 6], width: 3, islandOf: [0, 0, 0, 1, 1, 1, 2, 2] });
    expect(islandLayout(2, 5).sizes).toEqual([1, 1]);
    expect(islandLayout(4, 1).islandOf).toEqual([0, 0, 0, 0]);
  });

  it('gives every island its own variant of the task: the same family, another seed, deterministic', () => {
    const task = generateTask('coupled', 42);
    expect(islandTask(task, 0)).toBe(task);
    const v = islandTask(task, 1);
    expect(v.family).toBe('coupled');
    expect(v.seed).not.toBe(42);
    expect(islandTask(task, 1)).toEqual(v);
    expect(islandTask(task, 2).seed).not.toBe(v.seed);
    // evaluation seeds keep their variants on the evaluation side, training seeds on theirs
    expect(variantSeed(1_000_000_007, 3)).toBeGreaterThanOrEqual(1_000_000_000);
    expect(variantSeed(12345, 3)).toBeLessThan(1_000_000_000);
  });

  it('keeps messages inside an island: no DM reaches another island, reads only see the own board', () => {
    const s = createStructure(islands(2), 4);
    const env = s.createEnv(1);
    expect([env.B, env.N]).toEqual([2, 2]);
    const task = handTask([1, 3], [1, 1], [-1, 0]);
    env.reset([task, task], 0, 10);
    env.logRollout = 0;
    env.logCount = 2;
    // A DM to a swarm id beyond the island is illegal; within an island only the other member is addressable.
    const mask = new Float32Array(4 * NUM_ACTIONS);
    encodeMasks(env, mask);
    for (let r = 0; r < 4; r++) {
      for (let j = 2; j < 16; j++) expect(mask[r * NUM_ACTIONS + A_DM + j]).toBe(0);
    }
    expect(mask[0 * NUM_ACTIONS + A_DM + 1]).toBe(1);
    // island 0 builds module 0 and posts it; island 1 reads its own (empty) board
    env.step(Int32Array.from([work(0), A_IDLE, A_IDLE, A_IDLE]));
    env.step(Int32Array.from([A_POST, dm(3), A_IDLE, A_IDLE])); // agent 1 of island 0 tries a DM out of the island
    env.step(Int32Array.from([A_IDLE, A_READ, A_READ, A_READ]));
    expect(env.known[1] & 1).toBe(1); // island 0's other member read it
    expect(env.known[2] & 1).toBe(0); // island 1 never sees it
    expect(env.known[3] & 1).toBe(0);
    expect(env.board[1]).toBe(0);
    expect(env.metric(0, 'selfDms')).toBe(1); // the out-of-island DM went nowhere
    expect(env.metric(1, 'emptyReads')).toBe(2);
    // logged ids are swarm-wide: island 1's agents are 2 and 3
    const reads = env.events.filter((e) => e.kind === 'read').map((e) => e.agent);
    expect(reads.sort()).toEqual([1, 2, 3]);
    expect(env.events.find((e) => e.kind === 'dm')?.target).toBe(-1); // a target outside the island is nobody
  });

  it('leaves the extra slot of a smaller island inactive', () => {
    const s = createStructure(islands(3), 8);
    const env = s.createEnv(1);
    env.reset(s.cellTasks([generateTask('parallel', 1)]), 0, 10);
    expect(Array.from(env.active)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 0]);
    expect(Array.from(env.agentBase ?? [])).toEqual([0, 3, 6]);
  });

  it("counts the best island's progress as the swarm's return", async () => {
    const tasks = Array.from({ length: 6 }, (_, i) => generateTask('mixed', 100 + i));
    const run = await runEpisodes(scriptedOrganisation, tasks, 6, 2, 16, 0, islands(3));
    expect(run.stats).toHaveLength(6);
    // the same islands played by hand: one rollout per island, with the same streams
    const s = createStructure(islands(3), 6);
    const env = s.createEnv(6);
    env.reset(s.cellTasks(tasks), 2, 16, s.cellStreams(undefined, 6));
    const actions = new Int32Array(env.B * env.N);
    while (!env.isOver()) {
      scriptedOrganisation.act(env, actions);
      env.step(actions);
    }
    const cells = collectStats(env);
    for (let b = 0; b < 6; b++) {
      const own = cells.slice(3 * b, 3 * b + 3);
      expect(run.stats[b].ret).toBe(Math.max(...own.map((c) => c.ret)));
      expect(run.structure?.[b].islandBest).toBe(run.stats[b].ret);
      expect(run.structure?.[b].islandMean).toBeCloseTo(own.reduce((a, c) => a + c.ret, 0) / 3);
      run.stats[b].curve.forEach((v, t) => expect(v).toBe(Math.max(...own.map((c) => c.curve[t]))));
    }
    // islands differ, so best-of-islands is above the mean island somewhere
    expect(run.structure?.some((x) => x.islandBest > x.islandMean)).toBe(true);
  });

  it('stops the other islands when one passes all its tests', async () => {
    const easy = handTask([2], [1], [-1]);
    const s = createStructure(islands(2), 2);
    const env = s.createEnv(1);
    const hard = handTask([9], [1], [-1]);
    env.reset([easy, hard], 0, 20);
    env.step(Int32Array.from([work(0), work(0)]));
    expect(env.isOver()).toBe(false);
    env.step(Int32Array.from([work(0), work(0)]));
    expect(env.isOver()).toBe(true);
    expect(Array.from(env.tEnd)).toEqual([2, 2]);
    expect(s.teamStats(collectStats(env))[0].ret).toBe(1);
  });

  it('one agent per island with the single chain is best-of-N over task variants', async () => {
    const tasks = Array.from({ length: 4 }, (_, i) => generateTask('search', 7 + i));
    const run = await runEpisodes(singleChain, tasks, 4, 1, 20, -1, islands(4));
    expect(run.stats.every((s) => s.ret >= 0 && s.ret <= 1)).toBe(true);
    expect(run.structure?.every((x) => x.islandBest >= x.islandMean)).toBe(true);
  });
});
