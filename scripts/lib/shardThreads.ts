/**
 * Data-parallel training on several threads of one machine (`--threads N` of bench:learn and
 * experiment): shard 0 trains in this thread, shards 1..N-1 each in a worker thread
 * (scripts/lib/shardWorker.ts, driven over Comlink), and this thread's hub meets their gradients and
 * episode stats (src/rl/shards.ts says what they exchange and why the result is the same training).
 * Every shard runs on the same backend (wasm unless told), one thread each.
 */
import { Worker } from 'node:worker_threads';
import type { Config } from '../../src/rl/config';
import type { PolicyJSON } from '../../src/rl/policy';
import { localExchanges, type ShardExchange } from '../../src/rl/shards';
import { Trainer, type UpdateResult } from '../../src/rl/trainer';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { ShardApi, ShardData } from './shardWorker';
import { threadsProblem } from './threads';
import type { NodeBackend } from './nodeBackends';

/** A shard in a worker thread, seen from this thread: its calls, failing if the thread dies. */
class RemoteShard {
  private readonly api: Comlink.Remote<ShardApi>;
  /** Rejects once the thread errs or exits; every call races it (a dead thread answers nothing). */
  private readonly died: Promise<never>;

  constructor(private readonly worker: Worker) {
    this.api = Comlink.wrap<ShardApi>(nodeEndpoint(worker));
    this.died = new Promise<never>((_, reject) => {
      worker.on('error', (e) => reject(e instanceof Error ? e : new Error(String(e))));
      worker.on('exit', (code) => reject(new Error(`a training thread stopped (exit code ${code})`)));
    });
    this.died.catch(() => undefined); // observed by the calls that race it
  }

  private call(p: Promise<void>): Promise<void> {
    return Promise.race([p, this.died]);
  }

  start(exchange: ShardExchange): Promise<void> {
    return this.call(this.api.start(Comlink.proxy(exchange)));
  }

  step(): Promise<void> {
    return this.call(this.api.step());
  }

  async close(): Promise<void> {
    this.api[Comlink.releaseProxy]();
    await this.worker.terminate();
  }
}

/**
 * A trainer whose updates run on `threads` threads (`threadsProblem` must be null). It has the
 * trainer's face for what the scripts read: `step`, `policy` (shard 0's, the same weights as every
 * shard's), the update count and the evaluation setup.
 */
export class ThreadedTrainer {
  private constructor(
    readonly main: Trainer,
    private readonly remotes: RemoteShard[],
  ) {}

  /**
   * `weights`, if given, are every shard's starting weights (`Trainer.loadWeights`); `backend` is the
   * one every worker thread starts (this thread's must be the same, so that the shards compute alike).
   */
  static async start(config: Config, threads: number, weights?: PolicyJSON, backend: NodeBackend = 'wasm'): Promise<ThreadedTrainer> {
    const problem = threadsProblem(config, threads);
    if (problem) throw new RangeError(problem);
    const exchanges = localExchanges(threads);
    const main = new Trainer(config, undefined, { shard: { index: 0, count: threads, exchange: exchanges[0] } });
    const remotes: RemoteShard[] = [];
    try {
      if (weights) main.loadWeights(weights);
      for (let index = 1; index < threads; index++) {
        const data: ShardData = { config, index, count: threads, weights, backend };
        const worker = new Worker(new URL('./shardBoot.mjs', import.meta.url), {
          workerData: { entry: new URL('./shardWorker.ts', import.meta.url).href, ...data },
        });
        const remote = new RemoteShard(worker);
        remotes.push(remote);
        await remote.start(exchanges[index]);
      }
    } catch (e) {
      main.dispose();
      for (const r of remotes) await r.close();
      throw e;
    }
    return new ThreadedTrainer(main, remotes);
  }

  get policy() {
    return this.main.policy;
  }

  get update(): number {
    return this.main.update;
  }

  get finished(): boolean {
    return this.main.finished;
  }

  get totalUpdates(): number {
    return this.main.totalUpdates;
  }

  tmaxAt(u?: number): number {
    return this.main.tmaxAt(u);
  }

  evaluationSetup(): ReturnType<Trainer['evaluationSetup']> {
    return this.main.evaluationSetup();
  }

  /** One update on every shard; shard 0's result (its metrics are the whole batch's). */
  async step(): Promise<UpdateResult> {
    const [result] = await Promise.all([this.main.step(), ...this.remotes.map((r) => r.step())]);
    return result as UpdateResult;
  }

  async dispose(): Promise<void> {
    this.main.dispose();
    await Promise.all(this.remotes.map((r) => r.close()));
  }
}
