/**
 * Data-parallel training on several threads of one machine (`--threads N` of bench:learn and
 * experiment, and the lesson check's live steps, which train as the page does): shard 0 trains in
 * this thread, shards 1..N-1 each in a worker thread (scripts/lib/shardWorker.ts, driven over
 * Comlink through its Node adapter), and this thread's hub meets their gradients and episode stats.
 * The shards and the trainer that fronts them are the page's (src/worker/shardedTrainer.ts;
 * src/rl/shards.ts says what they exchange and why the result is the same training); only where
 * they run differs. Every shard runs on the same backend (wasm unless told), one thread each.
 */
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { Config } from '../../src/rl/config';
import type { PolicyJSON } from '../../src/rl/policy';
import { remoteShard } from '../../src/worker/remoteShard';
import { ShardedTrainer, type ShardRemote } from '../../src/worker/shardedTrainer';
import type { ShardData } from './shardWorker';
import { threadsProblem } from './threads';
import type { NodeBackend } from './nodeBackends';

/** A trainer whose updates run on threads: its worker threads besides (the tests end one as a crash would). */
export type ThreadedTrainer = ShardedTrainer & { readonly threads: readonly Worker[] };

/** A shard in a worker thread, failing its calls once the thread errs or exits. */
function threadShard(worker: Worker): ShardRemote {
  const died = new Promise<never>((_, reject) => {
    worker.on('error', (e) => reject(e instanceof Error ? e : new Error(String(e))));
    worker.on('exit', (code) => reject(new Error(`a training thread stopped (exit code ${code})`)));
  });
  return remoteShard(Comlink.wrap<ShardRemote>(nodeEndpoint(worker)), died);
}

/**
 * Starts a trainer on `threads` threads (`threadsProblem` must be null): `weights`, if given, are
 * every shard's starting weights (`Trainer.loadWeights`); `backend` is the one every worker thread
 * starts (this thread's must be the same, so that the shards compute alike). Its `dispose` ends the
 * threads.
 */
export async function startThreaded(config: Config, threads: number, weights?: PolicyJSON, backend: NodeBackend = 'wasm'): Promise<ThreadedTrainer> {
  const problem = threadsProblem(config, threads);
  if (problem) throw new RangeError(problem);
  const workers: Worker[] = [];
  for (let index = 1; index < threads; index++) {
    const data: ShardData = { backend };
    workers.push(
      new Worker(new URL('./shardBoot.mjs', import.meta.url), { workerData: { entry: new URL('./shardWorker.ts', import.meta.url).href, ...data } }),
    );
  }
  const release = async () => {
    await Promise.all(workers.map((w) => w.terminate()));
  };
  try {
    const trainer = await ShardedTrainer.start(config, workers.map(threadShard), { weights, release });
    return Object.assign(trainer, { threads: workers });
  } catch (e) {
    await release();
    throw e;
  }
}
