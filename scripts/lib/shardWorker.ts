/**
 * One shard of a data-parallel run in a worker thread (scripts/lib/shardThreads.ts): a trainer for
 * its task groups on the run's backend. It is driven over Comlink (the project's worker RPC, through
 * its Node adapter): `start` hands it the exchange, a proxy of the hub in the parent thread.
 */
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../src/rl/config';
import type { PolicyJSON } from '../../src/rl/policy';
import type { ShardExchange } from '../../src/rl/shards';
import { Trainer } from '../../src/rl/trainer';
import { useBackend } from './backend';
import type { NodeBackend } from './nodeBackends';

/** What a shard's worker thread offers its parent. */
export interface ShardApi {
  /** Builds the shard's trainer (from `weights` if given) around the parent's exchange. */
  start(exchange: ShardExchange): Promise<void>;
  /** One update of the shard. */
  step(): Promise<void>;
}

/** What a shard's worker thread is started with (`workerData`, besides the boot's `entry`). */
export interface ShardData {
  config: Config;
  index: number;
  count: number;
  weights?: PolicyJSON;
  backend: NodeBackend;
}

const port = parentPort;
if (!port) throw new Error('shardWorker.ts runs in a worker thread');
const { config, index, count, weights, backend } = workerData as ShardData;
await useBackend(backend);
let trainer: Trainer | null = null;

const api: ShardApi = {
  async start(exchange) {
    const remote = { reduce: exchange.reduce.bind(exchange), gather: exchange.gather.bind(exchange) };
    trainer = new Trainer(config, undefined, { shard: { index, count, exchange: remote } });
    if (weights) trainer.loadWeights(weights);
  },
  async step() {
    if (!trainer) throw new Error('the shard was not started');
    await trainer.step();
  },
};
Comlink.expose(api, nodeEndpoint(port));
