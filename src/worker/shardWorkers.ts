import * as Comlink from 'comlink';
import { remoteShard } from './remoteShard';
import type { ShardOptions } from './service';
import { localShards, PAGE_SHARDS, type ShardRemote } from './shardedTrainer';

/** A shard in a worker of its own (shard.worker.ts), seen from the trainer's worker. */
function workerShard(worker: Worker): ShardRemote {
  const died = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) => reject(new Error(`a training shard's worker failed: ${e.message || 'it could not start'}`)));
    worker.addEventListener('messageerror', () => reject(new Error("a training shard's worker could not read a message")));
  });
  return remoteShard(Comlink.wrap<ShardRemote>(worker), died);
}

/**
 * The trainer worker's shards: a worker each where the machine reports a core to spare beside
 * the trainer's (`cores` >= 2), the first started at once (its backend starts while the trainer's
 * worker chooses its own, instead of before the first update) and kept for the worker's life;
 * otherwise in the trainer's worker itself (the same numbers, on one core).
 */
export function shardWorkers(cores: number): Pick<ShardOptions, 'pool' | 'ownWorkers' | 'close'> {
  if (!(cores >= 2)) return { pool: localShards, ownWorkers: 0 };
  const workers: Worker[] = [];
  const shards: ShardRemote[] = [];
  const add = () => {
    const worker = new Worker(new URL('./shard.worker.ts', import.meta.url), { type: 'module', name: `swarm-shard-${shards.length + 1}` });
    workers.push(worker);
    shards.push(workerShard(worker));
  };
  add();
  const pool = (count: number) => {
    while (shards.length < count - 1) add();
    return shards.slice(0, count - 1);
  };
  // A backend that trains alone (a GPU) needs none of them: their memory goes back at once.
  const close = () => {
    for (const w of workers) w.terminate();
    workers.length = 0;
    shards.length = 0;
  };
  return { pool, ownWorkers: PAGE_SHARDS - 1, close };
}
