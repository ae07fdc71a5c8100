import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../rl/config';
import { NumericFault } from '../rl/numericFault';
import { policyWeights as flat } from '../rl/testing';
import { localExchanges } from '../rl/shards';
import { Trainer, type UpdateResult } from '../rl/trainer';
import { localShard, localShards, pageShards, ShardedTrainer, type ShardRemote } from './shardedTrainer';

const tiny: Config = { ...defaultConfig(), agents: 2, tasksPerUpdate: 2, groupSize: 2, tmaxStart: 6, tmaxEnd: 8, updates: 6, hidden: 16, scorer: 8 };

/** The reference: two bare shard trainers in this thread, changed by hand. */
function bareShards(config: Config): Trainer[] {
  const exchanges = localExchanges(2);
  return [0, 1].map((index) => new Trainer(config, undefined, { shard: { index, count: 2, exchange: exchanges[index] } }));
}

async function stepAll(trainers: Trainer[]): Promise<UpdateResult> {
  const [r] = await Promise.all(trainers.map((t) => t.step()));
  return r;
}

describe('the page training in shards', () => {
  it('shards flat runs of two task groups or more on wasm, and nothing else', () => {
    expect(pageShards(tiny, 'wasm')).toBe(2);
    expect(pageShards({ ...tiny, tasksPerUpdate: 4 }, 'wasm')).toBe(2);
    expect(pageShards({ ...tiny, tasksPerUpdate: 1 }, 'wasm')).toBe(1);
    expect(pageShards({ ...tiny, structure: 'islands' }, 'wasm')).toBe(1);
    expect(pageShards(tiny, 'webgpu')).toBe(1);
    expect(pageShards(tiny, 'webgl')).toBe(1);
    expect(pageShards(tiny, 'cpu')).toBe(1);
    expect(pageShards(tiny, null)).toBe(1);
  });

  it('trains as bare shards do, with settings and weights changed between updates reaching every shard', async () => {
    const sharded = await ShardedTrainer.start(tiny, localShards(2));
    const ref = bareShards(tiny);
    try {
      let [a, b] = [await sharded.step(), await stepAll(ref)];
      expect(a.metrics.ret).toBe(b.metrics.ret);
      expect(a.metrics.loss).toBe(b.metrics.loss);
      // A live change: if it missed the second shard, that shard would learn at the old rate and act on other weights.
      const live = { ...tiny, lr: 0.03, entropy: 0.02 };
      expect(sharded.reconfigure(live)).toBe(true);
      for (const t of ref) t.reconfigure(live);
      for (let i = 0; i < 2; i++) {
        a = await sharded.step();
        b = await stepAll(ref);
      }
      expect(a.metrics.loss).toBe(b.metrics.loss);
      expect(a.metrics.ret).toBe(b.metrics.ret);
      expect(await flat(sharded.policy)).toEqual(await flat(ref[0].policy));
      // Weights loaded into a running trainer reach every shard too.
      const other = new Trainer({ ...tiny, seed: 5 });
      const weights = other.policy.toJSON();
      other.dispose();
      sharded.loadWeights(weights);
      for (const t of ref) t.loadWeights(weights);
      a = await sharded.step();
      b = await stepAll(ref);
      expect(a.metrics.loss).toBe(b.metrics.loss);
      expect(await flat(sharded.policy)).toEqual(await flat(ref[0].policy));
      expect(sharded.update).toBe(4);
      // A structural change is refused, as by one trainer: it needs a new run.
      expect(sharded.reconfigure({ ...tiny, agents: 3 })).toBe(false);
      expect(sharded.config.agents).toBe(2);
    } finally {
      await sharded.dispose();
      for (const t of ref) t.dispose();
    }
  });

  it('starts every shard from given weights at a given update, and refuses weights of another shape', async () => {
    const other = new Trainer({ ...tiny, seed: 9 });
    const weights = other.policy.toJSON();
    other.dispose();
    const sharded = await ShardedTrainer.start(tiny, localShards(2), { weights, update: 3 });
    const ref = bareShards(tiny);
    try {
      for (const t of ref) {
        t.loadWeights(weights);
        t.update = 3;
      }
      const [a, b] = [await sharded.step(), await stepAll(ref)];
      expect(a.metrics.update).toBe(3);
      expect(a.metrics.tmax).toBe(b.metrics.tmax);
      expect(a.metrics.loss).toBe(b.metrics.loss);
      expect(await flat(sharded.policy)).toEqual(await flat(ref[0].policy));
    } finally {
      await sharded.dispose();
      for (const t of ref) t.dispose();
    }
    const narrow = new Trainer({ ...tiny, hidden: 8 });
    await expect(ShardedTrainer.start(tiny, localShards(2), { weights: narrow.policy.toJSON() })).rejects.toThrow(/hidden 8/);
    narrow.dispose();
  });

  it('stops a shard only while it trains the run being disposed: a pool hands its shards to the next run', async () => {
    const remotes = [localShard()];
    const first = await ShardedTrainer.start(tiny, remotes);
    const second = await ShardedTrainer.start(tiny, remotes);
    await first.dispose();
    const r = await second.step(); // the shard still trains the second run
    expect(r.metrics.update).toBe(0);
    await second.dispose();
    await expect(remotes[0].step()).rejects.toThrow(/not started/);
  });

  it("fails the update, instead of waiting for ever, when another shard's worker fails", async () => {
    const broken: ShardRemote = { ...localShard(), step: () => Promise.reject(new Error("a training shard's worker failed")) };
    const sharded = await ShardedTrainer.start(tiny, [broken]);
    await expect(sharded.step()).rejects.toThrow(/worker failed/);
    await sharded.dispose();
    const deaf: ShardRemote = { ...localShard(), reconfigure: () => Promise.reject(new Error('gone')) };
    const other = await ShardedTrainer.start(tiny, [deaf]);
    expect(other.reconfigure({ ...tiny, lr: 0.01 })).toBe(true);
    await expect(other.step()).rejects.toThrow(/gone/);
    await other.dispose();
  });

  it("reports shard 0's numeric fault once, every shard puts its last good weights back, and training goes on alike", async () => {
    const sharded = await ShardedTrainer.start(tiny, localShards(2));
    const ref = bareShards(tiny);
    try {
      await sharded.step();
      await stepAll(ref);
      const poisoned = { ...tiny, entropy: NaN };
      sharded.reconfigure(poisoned);
      for (const t of ref) t.reconfigure(poisoned);
      await expect(sharded.step()).rejects.toBeInstanceOf(NumericFault);
      const refFaults = await Promise.allSettled(ref.map((t) => t.step()));
      expect(refFaults.map((f) => f.status)).toEqual(['rejected', 'rejected']);
      sharded.reconfigure(tiny);
      for (const t of ref) t.reconfigure(tiny);
      const [a, b] = [await sharded.step(), await stepAll(ref)];
      expect(a.metrics.loss).toBe(b.metrics.loss);
      expect(await flat(sharded.policy)).toEqual(await flat(ref[0].policy));
    } finally {
      await sharded.dispose();
      for (const t of ref) t.dispose();
    }
  });
});
