import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from './config';
import { TINY_RUN } from './testing';
import { combineParts, localExchanges, Rendezvous, shardGroups } from './shards';
import { Trainer } from './trainer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny: Config = { ...TINY_RUN, tasksPerUpdate: 3 };

/** Every weight of a trainer's policy, in `vars` order. */
async function weights(t: Trainer): Promise<Float32Array[]> {
  return Promise.all(Object.values(t.policy.vars).map((v) => v.data() as Promise<Float32Array>));
}

function largestGap(a: Float32Array[], b: Float32Array[]): number {
  let gap = 0;
  a.forEach((x, i) => x.forEach((v, j) => (gap = Math.max(gap, Math.abs(v - b[i][j])))));
  return gap;
}

describe('data-parallel shards', () => {
  it('split the task groups evenly and in order, and refuse more shards than groups', () => {
    expect([0, 1].map((i) => shardGroups(4, i, 2))).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 4 },
    ]);
    expect([0, 1].map((i) => shardGroups(3, i, 2))).toEqual([
      { from: 0, to: 1 },
      { from: 1, to: 3 },
    ]);
    expect(shardGroups(4, 0, 1)).toEqual({ from: 0, to: 4 });
    expect(() => shardGroups(2, 0, 3)).toThrow(/cannot split 2 task groups over 3 shards/);
    expect(() => shardGroups(2, 2, 2)).toThrow(/shard 2 of 2/);
  });

  it('combine their parts as the mean over all rows, and as nothing when no shard had a row', () => {
    const all = combineParts([
      { rows: 1, loss: 3, entropy: 1, grads: Float32Array.from([1, 0]) },
      { rows: 3, loss: -1, entropy: 2, grads: Float32Array.from([5, 4]) },
    ]);
    expect(all.rows).toBe(4);
    expect(all.loss).toBe(0);
    expect(all.entropy).toBe(1.75);
    expect(Array.from(all.grads)).toEqual([4, 3]);
    expect(combineParts([{ rows: 0, loss: 0, entropy: 0, grads: new Float32Array(2) }]).rows).toBe(0);
    expect(() => combineParts([all, { ...all, grads: new Float32Array(3) }])).toThrow(/3 gradient numbers, another 2/);
  });

  it('meet every caller with the same answer, once all have come, and again for the next round', async () => {
    const r = new Rendezvous<number, number>(2, (v) => v[0] * 10 + v[1]);
    const first = r.meet(1, 2);
    let settled = false;
    void first.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await expect(Promise.all([r.meet(0, 7), first])).resolves.toEqual([72, 72]);
    await expect(Promise.all([r.meet(0, 1), r.meet(1, 1)])).resolves.toEqual([11, 11]);
    const twice = new Rendezvous<number, number>(2, (v) => v[0]);
    void twice.meet(0, 1);
    await expect(twice.meet(0, 1)).rejects.toThrow(/arrived twice/);
  });

  it('train as one trainer does: the same rollouts, the same metrics, and weights that agree to float rounding', async () => {
    const one = new Trainer(tiny);
    const exchanges = localExchanges(2);
    const shards = [0, 1].map((index) => new Trainer(tiny, undefined, { shard: { index, count: 2, exchange: exchanges[index] } }));
    expect(shards.map((s) => s.groups)).toEqual([
      { from: 0, to: 1 },
      { from: 1, to: 3 },
    ]);
    const alone = await one.step();
    const [first, second] = await Promise.all(shards.map((s) => s.step()));
    // The first update collects with the same weights: the same rollouts, stats and showcase.
    expect(first.metrics.useful).toBe(alone.metrics.useful);
    expect(first.metrics.messages).toBe(alone.metrics.messages);
    expect(first.metrics.ret).toBe(alone.metrics.ret);
    expect(first.metrics.retStd).toBe(alone.metrics.retStd);
    expect(second.metrics.ret).toBe(alone.metrics.ret);
    expect(first.events).toEqual(alone.events);
    expect(first.metrics.loss).toBeCloseTo(alone.metrics.loss, 6);
    expect(first.metrics.entropy).toBeCloseTo(alone.metrics.entropy, 5);
    expect(first.metrics.gradNorm).toBeCloseTo(alone.metrics.gradNorm, 5);
    // Both shards applied the same gradient: the same weights; and the trainer alone's, but for the order of the sums.
    const [w0, w1, w] = await Promise.all([weights(shards[0]), weights(shards[1]), weights(one)]);
    expect(largestGap(w0, w1)).toBe(0);
    expect(largestGap(w0, w)).toBeLessThan(1e-6);
    expect(largestGap(w0, await Promise.all(Object.values(new Trainer(tiny).policy.vars).map((v) => v.data() as Promise<Float32Array>)))).toBeGreaterThan(1e-4);
    while (!one.finished) await one.step();
    while (!shards[0].finished) await Promise.all(shards.map((s) => s.step()));
    expect(largestGap(await weights(shards[0]), await weights(shards[1]))).toBe(0);
    one.dispose();
    for (const s of shards) s.dispose();
  }, 60_000);

  it('only for the flat structure', () => {
    const exchange = localExchanges(1)[0];
    expect(() => new Trainer({ ...tiny, structure: 'ceo' }, undefined, { shard: { index: 0, count: 1, exchange } })).toThrow(/only the flat structure/);
  });
});
