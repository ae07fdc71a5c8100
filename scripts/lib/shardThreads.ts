/**
 * Data-parallel training on several threads of one machine (`--threads N` of bench:learn and
 * experiment): shard 0 trains in this thread, shards 1..N-1 each in a worker thread
 * (scripts/lib/shardWorker.ts), and this thread carries their gradients and episode stats to one
 * another (src/rl/shards.ts says what they exchange and why the result is the same training).
 * Every shard runs on the same backend (wasm unless told), one thread each.
 */
import { Worker } from 'node:worker_threads';
import type { Config } from '../../src/rl/config';
import type { PolicyJSON } from '../../src/rl/policy';
import { localExchanges, shardGroups, type ShardExchange } from '../../src/rl/shards';
import { Trainer, type UpdateResult } from '../../src/rl/trainer';
import type { FromShard, ToShard } from './shardProtocol';
import { threadsProblem } from './threads';
import type { NodeBackend } from './nodeBackends';

/** A shard in a worker thread, seen from this thread. */
class RemoteShard {
  private stepped: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;

  constructor(
    private readonly worker: Worker,
    private readonly exchange: ShardExchange,
  ) {
    worker.on('message', (m: FromShard) => void this.receive(m));
    worker.on('error', (e) => this.fail(e instanceof Error ? e : new Error(String(e))));
    worker.on('exit', (code) => {
      if (code !== 0) this.fail(new Error(`a training thread stopped with exit code ${code}`));
    });
  }

  private post(m: ToShard): void {
    this.worker.postMessage(m);
  }

  private async receive(m: FromShard): Promise<void> {
    if (m.kind === 'reduce') this.post({ kind: 'reduced', part: await this.exchange.reduce(m.part) });
    else if (m.kind === 'gather') this.post({ kind: 'gathered', stats: await this.exchange.gather(m.stats) });
    else if (m.kind === 'stepped') {
      const s = this.stepped;
      this.stepped = null;
      s?.resolve();
    } else if (m.kind === 'error') this.fail(new Error(m.message));
  }

  private fail(e: Error): void {
    this.failure ??= e;
    const s = this.stepped;
    this.stepped = null;
    s?.reject(e);
  }

  step(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.stepped = { resolve, reject };
      this.post({ kind: 'step' });
    });
  }

  async close(): Promise<void> {
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
    shardGroups(config.tasksPerUpdate, 0, threads);
    const exchanges = localExchanges(threads);
    const main = new Trainer(config, undefined, { shard: { index: 0, count: threads, exchange: exchanges[0] } });
    const remotes: RemoteShard[] = [];
    try {
      if (weights) main.loadWeights(weights);
      for (let index = 1; index < threads; index++) {
        const worker = new Worker(new URL('./shardBoot.mjs', import.meta.url), {
          workerData: { entry: new URL('./shardWorker.ts', import.meta.url).href, config, index, count: threads, weights, backend },
        });
        remotes.push(new RemoteShard(worker, exchanges[index]));
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
