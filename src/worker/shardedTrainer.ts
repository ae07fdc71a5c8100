import type { Config } from '../rl/config';
import { NumericFault } from '../rl/numericFault';
import type { PolicyJSON } from '../rl/policy';
import { localExchanges, type ShardExchange } from '../rl/shards';
import { Trainer, type UpdateResult } from '../rl/trainer';
import type { BackendName } from './protocol';

/**
 * The page's data-parallel training (docs/ENGINE.md, "Shards in the page"): a flat run on the wasm backend with
 * at least two task groups an update always trains as two shards, so a link trains the same numbers
 * on every machine with that backend; where the machine has a core to spare the second shard runs in
 * a worker of its own (`shard.worker.ts`), otherwise beside the first in the trainer's worker. It is
 * the training `npm run experiment -- --threads 2` does. GPU backends train alone: one device, and
 * its numbers differ from wasm's anyway.
 */
export const PAGE_SHARDS = 2;

/** How many shards the page trains `config` in on `backend`: PAGE_SHARDS where it can, else 1. */
export function pageShards(config: Pick<Config, 'structure' | 'tasksPerUpdate'>, backend: BackendName | null): number {
  return backend === 'wasm' && config.structure === 'flat' && config.tasksPerUpdate >= PAGE_SHARDS ? PAGE_SHARDS : 1;
}

/** What a shard other than the first is started with. */
export interface ShardStart {
  config: Config;
  index: number;
  count: number;
  /** Weights to start from (every shard's are the same); absent: the config's seed's fresh weights. */
  weights?: PolicyJSON;
  /** Updates done (a resumed run's). */
  update: number;
  /** Which run this is: `stop` stops the shard only while it still trains this run (a pool's shards pass from run to run). */
  run: number;
}

/**
 * A shard other than the first, wherever it runs (a worker of its own, or this thread): each call
 * resolves once the shard did it. `start` (re)builds its trainer around `exchange`; the trainer
 * calls `exchange` during `step`, so the shards meet there.
 */
export interface ShardRemote {
  start(init: ShardStart, exchange: ShardExchange): Promise<void>;
  /**
   * One update. A NumericFault resolves it all the same: the shards guard the same combined
   * gradient, so shard 0 meets the same fault and its report is the one the page gets.
   */
  step(): Promise<void>;
  reconfigure(config: Config): Promise<void>;
  loadWeights(weights: PolicyJSON): Promise<void>;
  /** Drops the shard's trainer if it still trains `run` (the shard itself stays, for the next `start`). */
  stop(run: number): Promise<void>;
}

/**
 * Where the shards after the first train: `count - 1` of them for a run of `count` shards. A pool
 * may hand out the same shards again for the next run (each `start` rebuilds its trainer).
 */
export type ShardPool = (count: number) => ShardRemote[];

/** Shards in this thread: every shard's work on one core, in the same numbers as a worker each. */
export const localShards: ShardPool = (count) => Array.from({ length: count - 1 }, () => localShard());

/** One update of a shard other than the first (`ShardRemote.step`: its NumericFault is shard 0's too). */
export async function stepShard(trainer: Trainer): Promise<void> {
  try {
    await trainer.step();
  } catch (e) {
    if (!(e instanceof NumericFault)) throw e;
  }
}

/** A shard trained in this thread: the fallback where no core is spare, and the tests'. */
export function localShard(): ShardRemote {
  let trainer: Trainer | null = null;
  let current = -1;
  const need = (): Trainer => {
    if (!trainer) throw new Error('the shard was not started');
    return trainer;
  };
  return {
    async start(init, exchange) {
      trainer?.dispose();
      trainer = null;
      const t = new Trainer(init.config, undefined, { shard: { index: init.index, count: init.count, exchange } });
      try {
        if (init.weights) t.loadWeights(init.weights);
      } catch (e) {
        t.dispose();
        throw e;
      }
      t.update = init.update;
      trainer = t;
      current = init.run;
    },
    async step() {
      await stepShard(need());
    },
    async reconfigure(config) {
      if (!need().reconfigure(config)) throw new Error('a shard was asked for a change that rebuilds the trainer');
    },
    async loadWeights(weights) {
      need().loadWeights(weights);
    },
    async stop(run) {
      if (run !== current) return;
      trainer?.dispose();
      trainer = null;
    },
  };
}

/**
 * A trainer of `shards` shards with the face of one: shard 0 trains here and its trainer is what
 * the service reads (its policy holds the same weights as every shard's, its metrics are the whole
 * batch's); every change the service makes between updates (settings, weights, the update count)
 * is made on the other shards too, before their next update.
 */
/** How `ShardedTrainer.start` starts a run besides its config and shards. */
export interface ShardedStart {
  weights?: PolicyJSON;
  update?: number;
  release?: () => Promise<void>;
}

/** The last run id given out (ShardStart.run). */
let runs = 0;

export class ShardedTrainer {
  /** The other shards' changes not yet confirmed; awaited before the next update. */
  private pending: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly main: Trainer,
    private readonly remotes: readonly ShardRemote[],
    private readonly run: number,
    private readonly release: (() => Promise<void>) | undefined,
  ) {}

  /**
   * Starts shard 0 here and the others on `remotes` (one per shard after the first), from `weights`
   * if given, at `update` updates done; `release`: what `dispose` frees besides (the threads of a runner that owns its shards).
   */
  static async start(config: Config, remotes: readonly ShardRemote[], opts: ShardedStart = {}): Promise<ShardedTrainer> {
    const { weights, update = 0, release } = opts;
    const count = remotes.length + 1;
    const run = ++runs;
    const exchanges = localExchanges(count);
    const main = new Trainer(config, undefined, { shard: { index: 0, count, exchange: exchanges[0] } });
    try {
      if (weights) main.loadWeights(weights);
      main.update = update;
      await Promise.all(remotes.map((r, i) => r.start({ config, index: i + 1, count, weights, update, run }, exchanges[i + 1])));
    } catch (e) {
      main.dispose();
      await Promise.allSettled(remotes.map((r) => r.stop(run)));
      throw e;
    }
    return new ShardedTrainer(main, remotes, run, release);
  }

  get config(): Config {
    return this.main.config;
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

  /** As `Trainer.reconfigure`; a change that applies is made on every shard. */
  reconfigure(config: Config): boolean {
    if (!this.main.reconfigure(config)) return false;
    const next = this.main.config;
    this.later(() => Promise.all(this.remotes.map((r) => r.reconfigure(next))));
    return true;
  }

  /** As `Trainer.loadWeights` (throws here, changing nothing, when they do not fit); then on every shard. */
  loadWeights(weights: PolicyJSON): void {
    this.main.loadWeights(weights);
    this.later(() => Promise.all(this.remotes.map((r) => r.loadWeights(weights))));
  }

  /**
   * One update on every shard; shard 0's result. It fails with the first failure: shard 0's
   * NumericFault (every shard stops alike), or another shard's error (a worker that died: shard 0
   * then waits for it for ever, and the service's trainer is to be replaced).
   */
  async step(): Promise<UpdateResult> {
    await this.pending;
    const [result] = await Promise.all([this.main.step(), ...this.remotes.map((r) => r.step())]);
    return result as UpdateResult;
  }

  /** Frees shard 0's trainer and stops the others' (a pool's workers stay for the next run), then `release`s. */
  async dispose(): Promise<void> {
    this.main.dispose();
    await Promise.allSettled(this.remotes.map((r) => r.stop(this.run)));
    await this.release?.();
  }

  /** Chains a change of the other shards after those before it; its failure surfaces at the next step. */
  private later(f: () => Promise<unknown>): void {
    this.pending = this.pending.then(f);
  }
}
