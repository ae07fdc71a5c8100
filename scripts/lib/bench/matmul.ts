/** The speed benchmark's matmul part: each backend's plain matmul throughput at the policy's shapes, and how much of it the learn step uses. */
import * as tf from '@tensorflow/tfjs';
import type { Config } from '../../../src/rl/config';
import { SwarmPolicy } from '../../../src/rl/policy';
import { AGENT_DIM, GLOBAL_DIM, MODULE_DIM } from '../../../src/sim/observe';
import { MAX_MODULES } from '../../../src/sim/task';
import type { NodeBackend } from '../backend';
import { median, summarise, type Summary } from '../stats';
import { DEADLINE, f, range, table, type Plan } from './plan';
import type { TrainResult } from './training';

/** Backward pass counted as twice the forward pass (gradients of inputs and of weights). */
const BACKWARD_FACTOR = 3;

// ---------------------------------------------------------------------------------------------
// 3. Matmul throughput and the learn step's share of it

interface MatmulShape {
  label: string;
  m: number;
  k: number;
  n: number;
}

export interface MatmulResult extends MatmulShape {
  /** Milliseconds per [m x k] x [k x n] product, read-back included. */
  ms: Summary;
  /** 2 m n k / median time. */
  gflops: number;
}

/** One dense layer of the policy: a [fanIn x fanOut] weight applied `perRow` times per observation. */
interface DenseUse {
  name: string;
  fanIn: number;
  fanOut: number;
  perRow: number;
}

/**
 * The matrix products of one forward pass of `SwarmPolicy.heads` (src/rl/policy.ts), per decision
 * row: the trunk's two layers (biases ride in the products as one more input row, and a unit column
 * carries the constant 1 on), the four heads that read the trunk as one fused product (module and
 * recipient context, kinds, value), the per-module scorer (MAX_MODULES rows counted) and the
 * per-recipient scorer (one row per agent of the team). Element-wise ops are not counted.
 */
function policyLayers(c: Config): DenseUse[] {
  const H = c.hidden;
  const S = c.scorer;
  return [
    { name: 'g1', fanIn: GLOBAL_DIM + MODULE_DIM + AGENT_DIM + 1, fanOut: H + 1, perRow: 1 },
    { name: 'g2', fanIn: H + 1, fanOut: H + 1, perRow: 1 },
    { name: 'mh+ah+ko+vo', fanIn: H + 1, fanOut: 2 * S + 6 + 1, perRow: 1 },
    { name: 'mf', fanIn: MODULE_DIM, fanOut: S, perRow: MAX_MODULES },
    { name: 'mo', fanIn: S, fanOut: 2, perRow: MAX_MODULES },
    { name: 'af', fanIn: AGENT_DIM, fanOut: S, perRow: c.agents },
    { name: 'ao', fanIn: S, fanOut: 1, perRow: c.agents },
  ];
}

/**
 * Weights of a freshly built policy whose shape disagrees with `policyLayers` (a layer's fan-in
 * without its bias row and carry column, or a fused layer's parts): empty while the FLOP count
 * matches src/rl/policy.ts. Needs a backend.
 */
export function layerMismatches(c: Config): string[] {
  const policy = SwarmPolicy.create({ hidden: c.hidden, scorer: c.scorer });
  try {
    const bad: string[] = [];
    const vars = policy.vars;
    for (const l of policyLayers(c)) {
      const parts = l.name.split('+');
      const missing = parts.filter((n) => !vars[n] || vars[n].rank !== 2);
      if (missing.length > 0) {
        bad.push(...missing);
        continue;
      }
      const fanIn = vars[parts[0]]!.shape[0];
      const fanOut = parts.reduce((s, n) => s + (vars[n]!.shape[1] ?? 0), 0);
      const trunk = l.name === 'g1' || l.name === 'g2';
      const biasRow = trunk || parts.length > 1 ? 1 : 0;
      if (fanIn + biasRow !== l.fanIn || fanOut + (trunk ? 1 : 0) !== l.fanOut) bad.push(l.name);
    }
    return bad;
  } finally {
    policy.dispose();
  }
}

/** Forward matmul FLOPs per observation row (2 per multiply-add). */
function forwardFlopsPerRow(c: Config): number {
  return policyLayers(c).reduce((s, l) => s + 2 * l.fanIn * l.fanOut * l.perRow, 0);
}

/** Decisions one update learns from, at most: every agent of every rollout, every minute. */
function rowsPerUpdate(c: Config): number {
  return c.tasksPerUpdate * c.groupSize * c.agents * DEADLINE;
}

/** Shapes of the model's largest products at the training batch size, plus a square reference. */
export function matmulShapes(c: Config): MatmulShape[] {
  const rows = rowsPerUpdate(c);
  return [
    { label: 'trunk layer 2', m: rows, k: c.hidden, n: c.hidden },
    { label: 'module scorer', m: rows * MAX_MODULES, k: MODULE_DIM, n: c.scorer },
    { label: 'square', m: 512, k: 512, n: 512 },
  ];
}

/** Times `tf.matMul` of random inputs inside `tf.tidy`, reading the product back each time. */
export async function benchMatmul(shape: MatmulShape, plan: Plan): Promise<MatmulResult> {
  const a = tf.randomUniform([shape.m, shape.k]) as tf.Tensor2D;
  const b = tf.randomUniform([shape.k, shape.n]) as tf.Tensor2D;
  try {
    const once = async (): Promise<number> => {
      const t0 = performance.now();
      const c = tf.tidy(() => tf.matMul(a, b));
      await c.data();
      c.dispose();
      return performance.now() - t0;
    };
    for (let i = 0; i < plan.matmulWarmup; i++) await once();
    const ms: number[] = [];
    for (let i = 0; i < plan.matmulReps; i++) ms.push(await once());
    const med = median(ms);
    return { ...shape, ms: summarise(ms), gflops: (2 * shape.m * shape.n * shape.k) / (med / 1000) / 1e9 };
  } finally {
    tf.dispose([a, b]);
  }
}

/**
 * The learn step's achieved FLOP rate, estimated from counted FLOPs and its measured time. The count
 * is the model's: a forward and a backward pass per epoch, as the issue measured it. When the first
 * epoch's forward pass came from acting (`Trainer.firstEpochFromActing`), the learn step itself ran
 * one forward pass fewer; `executed*` count only what it ran (in the share of measured updates that
 * reused it).
 */
interface LearnEstimate {
  backend: NodeBackend;
  forwardFlopsPerRow: number;
  /** Upper bound on the decisions learned from (finished rollouts and forced moves are not live). */
  rows: number;
  epochs: number;
  backwardFactor: number;
  learnGflop: number;
  learnMs: number;
  achievedGflops: number;
  bestMatmulGflops: number;
  bestMatmulLabel: string;
  percentOfBest: number;
  /** Measured updates whose first epoch's forward pass came from acting, of `updates`. */
  firstEpochFromActing: number;
  updates: number;
  executedGflop: number;
  executedPercentOfBest: number;
}

export function estimateLearn(c: Config, train: TrainResult, matmul: MatmulResult[]): LearnEstimate {
  const perRow = forwardFlopsPerRow(c);
  const rows = rowsPerUpdate(c);
  const flops = perRow * rows * BACKWARD_FACTOR * c.epochs;
  const reused = train.updates > 0 ? train.firstEpochFromActing / train.updates : 0;
  const executed = flops - reused * perRow * rows;
  const learnMs = train.learnMs.median;
  const achieved = flops / (learnMs / 1000) / 1e9;
  const best = matmul.reduce((x, y) => (y.gflops > x.gflops ? y : x));
  return {
    backend: train.backend,
    forwardFlopsPerRow: perRow,
    rows,
    epochs: c.epochs,
    backwardFactor: BACKWARD_FACTOR,
    learnGflop: flops / 1e9,
    learnMs,
    achievedGflops: achieved,
    bestMatmulGflops: best.gflops,
    bestMatmulLabel: best.label,
    percentOfBest: (100 * achieved) / best.gflops,
    firstEpochFromActing: train.firstEpochFromActing,
    updates: train.updates,
    executedGflop: executed / 1e9,
    executedPercentOfBest: (100 * (executed / (learnMs / 1000) / 1e9)) / best.gflops,
  };
}

/** Everything measured on one backend besides the training updates. */
export interface BackendResult {
  backend: NodeBackend;
  /** How the backend runs (threads, SIMD). */
  detail: string;
  matmul: MatmulResult[];
  estimate: LearnEstimate;
}

export function printMatmul(byBackend: BackendResult[], mismatches: string[], plan: Plan): void {
  console.log(`\n3. Matmul throughput (tf.matMul in tf.tidy + data() read-back; median of ${plan.matmulReps} after ${plan.matmulWarmup} warm-up)`);
  const rows: string[][] = [];
  for (const { backend, matmul } of byBackend) {
    for (const m of matmul) rows.push([backend, m.label, `[${m.m}x${m.k}]x[${m.k}x${m.n}]`, range(m.ms, 2), f(m.gflops, 2)]);
  }
  table(['backend', 'product', 'shape', 'ms (min..max)', 'GFLOP/s'], rows);

  const estimates = byBackend.map((b) => b.estimate);
  const e0 = estimates[0];
  console.log(`\n  Learn step vs. matmul capability -- ESTIMATE, not a measurement of FLOPs:`);
  if (mismatches.length > 0) console.log(`  WARNING: the counted layers no longer match src/rl/policy.ts (${mismatches.join(', ')}); update policyLayers()`);
  console.log(`  counted ${e0.forwardFlopsPerRow} forward matmul FLOPs per row (policy.ts layers; biases and element-wise ops not counted)`);
  console.log(
    `  x ${e0.rows} rows (tasks x rollouts x agents x ${DEADLINE} minutes: an upper bound on live decisions)` +
      ` x ${e0.backwardFactor} (forward + backward) x ${e0.epochs} epochs = ${f(e0.learnGflop, 2)} GFLOP per learn step`,
  );
  table(
    ['backend', 'learn ms', 'achieved GFLOP/s', 'best matmul GFLOP/s', '% of best'],
    estimates.map((e) => [
      e.backend,
      f(e.learnMs, 0),
      f(e.achievedGflops, 2),
      `${f(e.bestMatmulGflops, 2)} (${e.bestMatmulLabel})`,
      `${f(e.percentOfBest, 0)}%`,
    ]),
  );
  for (const e of estimates.filter((x) => x.firstEpochFromActing > 0)) {
    console.log(
      `  ${e.backend}: in ${e.firstEpochFromActing} of ${e.updates} measured updates the first epoch's forward pass came from acting, ` +
        `so the learn step itself ran ${f(e.executedGflop, 2)} GFLOP: ${f(e.executedPercentOfBest, 0)}% of the best matmul by what it ran`,
    );
  }
}
