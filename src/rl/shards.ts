import type { EpisodeStats } from '../sim/episodeStats';

/**
 * Data-parallel training: an update's G task groups split over S shards, each a trainer with its own
 * copy of the policy that collects its groups and takes the gradient of its own decisions; the
 * shards then agree on the batch's gradient (the rows-weighted mean of theirs, summed in shard
 * order) and each applies it with its own Adam, so their weights stay the same. The gradient of a
 * mean over all rows is that weighted mean exactly; only the order of the float sums differs from
 * one trainer (docs/ENGINE.md, "Shards"). This module is the arithmetic and an in-process exchange;
 * carrying the parts between threads is the runner's (scripts/lib/shardThreads.ts, the worker).
 */

/** One shard's share of a learn step: means over its own decision rows, and how many rows it had. */
export interface ShardPart {
  rows: number;
  loss: number;
  entropy: number;
  /** The loss's gradient, every policy variable flattened in `GRADIENT_VARS` order (policyGradient.ts). */
  grads: Float32Array;
}

/** How a shard meets the others: every call resolves when all shards made it, with the same answer for all. */
export interface ShardExchange {
  /** The whole batch's part: the rows-weighted mean of every shard's (`combineParts`). */
  reduce(part: ShardPart): Promise<ShardPart>;
  /** Every shard's episode stats, in shard order: the whole batch's. */
  gather(stats: EpisodeStats[]): Promise<EpisodeStats[]>;
}

/** Where a trainer sits among the shards of a run. */
export interface ShardPlace {
  index: number;
  count: number;
  exchange: ShardExchange;
}

/** The task groups [from, to) of shard `index` of `count` among `groups`: as even as they go, in order. */
export function shardGroups(groups: number, index: number, count: number): { from: number; to: number } {
  if (!(Number.isInteger(count) && count >= 1 && count <= groups)) throw new RangeError(`cannot split ${groups} task groups over ${count} shards`);
  if (!(Number.isInteger(index) && index >= 0 && index < count)) throw new RangeError(`shard ${index} of ${count}`);
  return { from: Math.floor((index * groups) / count), to: Math.floor(((index + 1) * groups) / count) };
}

/** The rows-weighted mean of the parts, summed in their order (all zero when no shard had a row). */
export function combineParts(parts: readonly ShardPart[]): ShardPart {
  const n = parts[0].grads.length;
  const rows = parts.reduce((s, p) => s + p.rows, 0);
  const grads = new Float32Array(n);
  if (rows === 0) return { rows: 0, loss: 0, entropy: 0, grads };
  // In float64 and then rounded once, so the mean does not depend on how the rows fell over the shards beyond that rounding.
  const acc = new Float64Array(n);
  let loss = 0;
  let entropy = 0;
  for (const p of parts) {
    if (p.grads.length !== n) throw new RangeError(`a shard sent ${p.grads.length} gradient numbers, another ${n}`);
    const w = p.rows / rows;
    loss += w * p.loss;
    entropy += w * p.entropy;
    for (let j = 0; j < n; j++) acc[j] += w * p.grads[j];
  }
  grads.set(acc);
  return { rows, loss, entropy, grads };
}

/**
 * Meets `count` callers of one kind: each `meet(index, value)` resolves once every index has called,
 * with `settle` of the values in index order (each caller gets the same result).
 */
export class Rendezvous<T, R> {
  private values: (T | undefined)[];
  private waiting: ((r: R) => void)[] = [];
  private failing: ((e: unknown) => void)[] = [];
  private arrived = 0;

  constructor(
    readonly count: number,
    private readonly settle: (values: T[]) => R,
  ) {
    this.values = new Array<T | undefined>(count);
  }

  meet(index: number, value: T): Promise<R> {
    if (this.values[index] !== undefined) return Promise.reject(new Error(`shard ${index} arrived twice at one exchange`));
    this.values[index] = value;
    this.arrived++;
    const done = new Promise<R>((resolve, reject) => {
      this.waiting.push(resolve);
      this.failing.push(reject);
    });
    if (this.arrived === this.count) {
      const values = this.values as T[];
      const waiting = this.waiting;
      const failing = this.failing;
      this.values = new Array<T | undefined>(this.count);
      this.waiting = [];
      this.failing = [];
      this.arrived = 0;
      try {
        const r = this.settle(values);
        for (const w of waiting) w(r);
      } catch (e) {
        for (const f of failing) f(e);
      }
    }
    return done;
  }
}

/** Exchanges for `count` shards of one process (the tests, and the runner's hub side). */
export function localExchanges(count: number): ShardExchange[] {
  const reduce = new Rendezvous<ShardPart, ShardPart>(count, combineParts);
  const gather = new Rendezvous<EpisodeStats[], EpisodeStats[]>(count, (all) => all.flat());
  return Array.from({ length: count }, (_, i) => ({
    reduce: (part: ShardPart) => reduce.meet(i, part),
    gather: (stats: EpisodeStats[]) => gather.meet(i, stats),
  }));
}
