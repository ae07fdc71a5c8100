/** The speed benchmark's training part: the cost of one update (rollout collection and learning) on a TF.js backend. */
import { defaultConfig, type Config } from '../../../src/rl/config';
import { Trainer } from '../../../src/rl/trainer';
import type { NodeBackend } from '../backend';
import { summarise, type Summary } from '../stats';
import { DEADLINE, f, progress, range, table, type Plan } from './plan';

// ---------------------------------------------------------------------------------------------
// 2. Training update cost

export interface TrainResult {
  backend: NodeBackend;
  warmup: number;
  /** Measured updates. */
  updates: number;
  collectMs: Summary;
  learnMs: Summary;
  /** Wall time of `Trainer.step()`. */
  totalMs: Summary;
  /** 1000 / median total. */
  updatesPerSec: number;
  /** Measured updates whose first epoch ran on the actor's forward pass (`Trainer.firstEpochFromActing`). */
  firstEpochFromActing: number;
}

/** The default config with a fixed deadline, so every update plays the same number of minutes. */
export function trainingConfig(): Config {
  return { ...defaultConfig(), tmaxStart: DEADLINE, tmaxEnd: DEADLINE };
}

/** Runs warm-up updates, then as many measured updates as the plan allows, on the current backend. */
export async function benchTraining(backend: NodeBackend, plan: Plan): Promise<TrainResult> {
  const trainer = new Trainer(trainingConfig());
  try {
    const step = async () => {
      const t0 = performance.now();
      const { metrics } = await trainer.step();
      return { collect: metrics.collectMs, learn: metrics.learnMs, total: performance.now() - t0, fromActing: trainer.firstEpochFromActing };
    };
    let last = 0;
    for (let i = 0; i < plan.trainWarmup; i++) {
      progress(`${backend}: warm-up update ${i + 1}/${plan.trainWarmup}`);
      last = (await step()).total;
    }
    const fit = last > 0 ? Math.floor(plan.trainBudgetMs / last) : plan.trainMax;
    const updates = Math.min(plan.trainMax, Math.max(plan.trainMin, fit));
    const collect: number[] = [];
    const learn: number[] = [];
    const total: number[] = [];
    let fromActing = 0;
    for (let i = 0; i < updates; i++) {
      progress(`${backend}: measured update ${i + 1}/${updates}`);
      const s = await step();
      collect.push(s.collect);
      learn.push(s.learn);
      total.push(s.total);
      if (s.fromActing) fromActing++;
    }
    const totalMs = summarise(total);
    return {
      backend,
      warmup: plan.trainWarmup,
      updates,
      collectMs: summarise(collect),
      learnMs: summarise(learn),
      totalMs,
      updatesPerSec: 1000 / totalMs.median,
      firstEpochFromActing: fromActing,
    };
  } finally {
    trainer.dispose();
  }
}

export function printTraining(results: TrainResult[]): void {
  const c = trainingConfig();
  console.log(`\n2. Training update cost (Trainer.step)`);
  console.log(
    `  defaultConfig() with fixed deadline ${DEADLINE}: ${c.tasksPerUpdate} tasks x ${c.groupSize} rollouts x ${c.agents} agents, ` +
      `${c.epochs} epochs, hidden ${c.hidden}, scorer ${c.scorer}; medians (min..max) in ms`,
  );
  table(
    ['backend', 'updates', 'collect ms', 'learn ms', 'total ms', 'updates/s'],
    results.map((r) => [
      r.backend,
      `${r.updates} (+${r.warmup} warm-up)`,
      range(r.collectMs, 0),
      range(r.learnMs, 0),
      range(r.totalMs, 0),
      f(r.updatesPerSec, 2),
    ]),
  );
}
