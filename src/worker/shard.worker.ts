import * as Comlink from 'comlink';
import { chooseBackend } from './backends';
import { localShard, type ShardRemote } from './shardedTrainer';

/**
 * A shard of the page's training other than the first (shardedTrainer.ts), in a worker the
 * trainer's worker starts: the wasm backend on one thread (as the trainer's own, so that both
 * compute alike), and a trainer of its task groups, driven over Comlink. The exchange it is started
 * with is a proxy of the hub in the trainer's worker.
 */
let backend: Promise<unknown> | null = null;
const shard = localShard();

const api: ShardRemote = {
  async start(init, exchange) {
    backend ??= chooseBackend('wasm', () => undefined, { threads: init.threads }).then((r) => {
      if (r.backend !== 'wasm') throw new Error(`a training shard needs the wasm backend, and ${r.backend} started instead`);
    });
    await backend;
    await shard.start(init, exchange);
  },
  step: () => shard.step(),
  reconfigure: (config) => shard.reconfigure(config),
  loadWeights: (weights) => shard.loadWeights(weights),
  stop: (run) => shard.stop(run),
};
Comlink.expose(api);
