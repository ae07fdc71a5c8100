/**
 * One shard of a data-parallel run in a worker thread (scripts/lib/shardThreads.ts): a trainer
 * for its task groups on the run's backend, stepping when told, its exchange carried by messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../src/rl/config';
import type { PolicyJSON } from '../../src/rl/policy';
import type { ShardExchange, ShardPart } from '../../src/rl/shards';
import { Trainer } from '../../src/rl/trainer';
import type { EpisodeStats } from '../../src/sim/episodeStats';
import { useBackend } from './backend';
import type { NodeBackend } from './nodeBackends';
import type { FromShard, ToShard } from './shardProtocol';

const port = parentPort;
if (!port) throw new Error('shardWorker.ts runs in a worker thread');
const { config, index, count, weights, backend } = workerData as { config: Config; index: number; count: number; weights?: PolicyJSON; backend: NodeBackend };
const post = (m: FromShard) => port.postMessage(m);

let reduced: ((p: ShardPart) => void) | null = null;
let gathered: ((s: EpisodeStats[]) => void) | null = null;
const exchange: ShardExchange = {
  reduce: (part) =>
    new Promise((resolve) => {
      reduced = resolve;
      post({ kind: 'reduce', part });
    }),
  gather: (stats) =>
    new Promise((resolve) => {
      gathered = resolve;
      post({ kind: 'gather', stats });
    }),
};

await useBackend(backend);
const trainer = new Trainer(config, undefined, { shard: { index, count, exchange } });
if (weights) trainer.loadWeights(weights);

port.on('message', (m: ToShard) => {
  if (m.kind === 'reduced') reduced?.(m.part);
  else if (m.kind === 'gathered') gathered?.(m.stats);
  else if (m.kind === 'step') {
    trainer.step().then(
      () => post({ kind: 'stepped' }),
      (e: unknown) => post({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
  }
});
