/**
 * One shard of a data-parallel run in a worker thread (scripts/lib/shardThreads.ts): the page's
 * shard (src/worker/shardedTrainer.ts `localShard`) on the run's backend, driven over Comlink (the
 * project's worker RPC, through its Node adapter). `start` hands it the run and the exchange, a
 * proxy of the hub in the parent thread.
 */
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { parentPort, workerData } from 'node:worker_threads';
import { localShard } from '../../src/worker/shardedTrainer';
import { useBackend } from './backend';
import type { NodeBackend } from './nodeBackends';

/** What a shard's worker thread is started with (`workerData`, besides the boot's `entry`). */
export interface ShardData {
  backend: NodeBackend;
}

const port = parentPort;
if (!port) throw new Error('shardWorker.ts runs in a worker thread');
const { backend } = workerData as ShardData;
await useBackend(backend);
Comlink.expose(localShard(), nodeEndpoint(port));
