import { beforeAll, describe, expect, it } from 'vitest';
import { policyWeights as flat, TINY_RUN as tiny } from '../../src/rl/testing';
import { Trainer } from '../../src/rl/trainer';
import { useBackend } from './backend';
import { startThreaded } from './shardThreads';
import { autoThreads, threadsProblem } from './threads';

beforeAll(async () => {
  await useBackend('wasm');
});

describe('training on several threads', () => {
  it('says which runs cannot, and picks one thread per core and task group', () => {
    expect(threadsProblem(tiny, 1)).toBeNull();
    expect(threadsProblem(tiny, 2)).toBeNull();
    expect(threadsProblem(tiny, 3)).toMatch(/--threads 3: each thread needs a task group of its own, and an update has 2/);
    expect(threadsProblem({ ...tiny, structure: 'ceo' }, 2)).toMatch(/only the flat structure/);
    expect(autoThreads(tiny, 8)).toBe(2);
    expect(autoThreads({ ...tiny, tasksPerUpdate: 8 }, 8)).toBe(4);
    expect(autoThreads({ ...tiny, tasksPerUpdate: 8 }, 1)).toBe(1);
    expect(autoThreads({ ...tiny, structure: 'islands' }, 8)).toBe(1);
  });

  it('trains as one trainer does: the same first rollouts, weights that agree to float rounding', async () => {
    const alone = new Trainer(tiny);
    const threaded = await startThreaded(tiny, 2);
    try {
      const a = await alone.step();
      const t = await threaded.step();
      expect(t.metrics.ret).toBe(a.metrics.ret);
      expect(t.metrics.useful).toBe(a.metrics.useful);
      expect(t.metrics.messages).toBe(a.metrics.messages);
      expect(t.events).toEqual(a.events);
      expect(t.metrics.loss).toBeCloseTo(a.metrics.loss, 6);
      while (!threaded.finished) await threaded.step();
      while (!alone.finished) await alone.step();
      expect(threaded.update).toBe(3);
      const [wa, wt] = await Promise.all([flat(alone.policy), flat(threaded.policy)]);
      expect(Math.max(...wa.map((v, i) => Math.abs(v - wt[i])))).toBeLessThan(1e-4);
    } finally {
      alone.dispose();
      await threaded.dispose();
    }
  }, 60_000);

  it('starts every shard from given weights, and refuses weights of another shape', async () => {
    const source = new Trainer({ ...tiny, seed: 9 });
    const weights = source.policy.toJSON();
    source.dispose();
    const threaded = await startThreaded(tiny, 2, weights);
    try {
      const fresh = new Trainer(tiny);
      fresh.loadWeights(weights);
      expect(await flat(threaded.policy)).toEqual(await flat(fresh.policy));
      const [a, t] = [await fresh.step(), await threaded.step()];
      expect(t.metrics.ret).toBe(a.metrics.ret); // the worker's shard started from them too
      fresh.dispose();
    } finally {
      await threaded.dispose();
    }
    const other = new Trainer({ ...tiny, hidden: 8 });
    await expect(startThreaded(tiny, 2, other.policy.toJSON())).rejects.toThrow(/hidden 8/);
    other.dispose();
  }, 60_000);

  it('fails the update, instead of waiting for ever, when a training thread dies', async () => {
    const threaded = await startThreaded(tiny, 2);
    try {
      await threaded.step();
      // The worker thread goes away as a crash would take it.
      await threaded.threads[0].terminate();
      await expect(threaded.step()).rejects.toThrow(/a training thread stopped/);
    } finally {
      await threaded.dispose();
    }
  }, 60_000);
});
