import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LessonDrag } from '../../src/core/lessonClaims';
import type { Config } from '../../src/rl/config';
import type { UpdateMetrics } from '../../src/rl/metrics';
import type { PolicyJSON } from '../../src/rl/policy';
import * as tf from '@tensorflow/tfjs';
import { Trainer } from '../../src/rl/trainer';
import type { BackendName } from '../../src/worker/protocol';
import { pageShards } from '../../src/worker/shardedTrainer';
import { cacheKey, writeAtomic } from './cache';
import { ProgressBar } from './progress';
import type { NodeBackend } from './nodeBackends';
import { startThreaded } from './shardThreads';

/** A training run the lesson check measures: its settings, its curve (one entry per update) and its final weights. */
export interface LessonRun {
  config: Config;
  curve: UpdateMetrics[];
  policy: PolicyJSON;
  /** How the trained swarm is organised when it is evaluated (Trainer.evaluationSetup). */
  evaluation: ReturnType<Trainer['evaluationSetup']>;
  seconds: number;
}

/**
 * Trains `config` from fresh weights step by step to the last update, the way `as` does: `page`, a
 * step the class trains live, on this backend (in the page's shards where the page trains in
 * shards, `pageShards`, a thread each); `pretrain`, a swarm the lesson loads, as `npm run pretrain`
 * made it (one trainer). Or takes the run from `cacheDir` where an earlier check trained exactly
 * these settings (the key is a hash of the whole config, seed included). `stopAfter`: only that many
 * updates (a step that runs one update of its config); `drag`: a setting changed while it trains.
 */
export async function trainLessonRun(
  config: Config,
  cacheDir: string | null,
  quiet: boolean,
  label: string,
  stopAfter: number | null = null,
  drag: LessonDrag | null = null,
  as: 'page' | 'pretrain' = 'pretrain',
): Promise<LessonRun> {
  const backend = tf.getBackend() as NodeBackend;
  const shards = as === 'page' ? pageShards(config, backend as BackendName) : 1;
  const plain = stopAfter === null && drag === null ? config : { config, stopAfter, drag };
  // A run trained alone keeps the key it had before the page trained in shards.
  const what = shards > 1 ? { config, stopAfter, drag, shards } : plain;
  const file = cacheDir ? join(cacheDir, `run-${cacheKey(what)}.json`) : null;
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LessonRun;
  const trainer = shards > 1 ? await startThreaded(config, shards, undefined, backend) : new Trainer(config);
  const bar = quiet ? null : new ProgressBar(label, trainer.totalUpdates, process.stderr, { work: config });
  const curve: UpdateMetrics[] = [];
  const t0 = performance.now();
  try {
    while (!trainer.finished && (stopAfter === null || trainer.update < stopAfter)) {
      // A slider dragged after update `drag.at`: a live change, as the app makes it between updates.
      if (drag && trainer.update === drag.at) trainer.reconfigure({ ...trainer.config, ...drag.patch });
      const { metrics } = await trainer.step();
      curve.push(metrics);
      bar?.update(trainer.update, `return ${metrics.ret.toFixed(2)}`);
    }
    const run: LessonRun = { config, curve, policy: trainer.policy.toJSON(), evaluation: trainer.evaluationSetup(), seconds: (performance.now() - t0) / 1000 };
    if (file && cacheDir) {
      mkdirSync(cacheDir, { recursive: true });
      writeAtomic(file, JSON.stringify(run));
    }
    return run;
  } finally {
    await trainer.dispose();
  }
}
