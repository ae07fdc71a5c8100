import * as Comlink from 'comlink';
import { chooseBackend } from './backends';
import { localShard, type ShardRemote } from './shardedTrainer';

/**
 * A shard of the page's training other than the first (shardedTrainer.ts), in a worker the
 * trainer's worker starts as it starts itself: the wasm backend on one thread, started at once (so
 * that it is ready by the first update; tfjs-backend-wasm's products split their outputs over
 * threads, not their sums: a run's recorded losses are the same with the trainer's worker on one
 * and on two threads, e2e/speed.spec.ts), and
 * a trainer of its task groups, driven over Comlink. The exchange it is started with is a proxy of
 * the hub in the trainer's worker.
 */
const backend = chooseBackend('wasm', () => undefined, { threads: 1 }).then((r) => {
  if (r.backend !== 'wasm') throw new Error(`a training shard needs the wasm backend, and ${r.backend} started instead`);
});
backend.catch(() => undefined); // reported by the first start
const shard = localShard();

const api: ShardRemote = {
  async start(init, exchange) {
    await backend;
    await shard.start(init, exchange);
  },
  step: () => shard.step(),
  reconfigure: (config) => shard.reconfigure(config),
  loadWeights: (weights) => shard.loadWeights(weights),
  stop: (run) => shard.stop(run),
};
Comlink.expose(api);
