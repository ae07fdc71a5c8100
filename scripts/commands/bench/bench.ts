/**
 * Speed benchmark: `npm run bench [-- --quick] [--backends cpu,wasm] [--json <file>]`.
 *
 * Prints, after the machine it ran on:
 * 1. environment throughput in Node, one thread: agent-steps per second of the vectorised sprint
 *    simulator, with and without the per-minute observation encoding (dense rows and the shared
 *    blocks training stores), and the cost per minute of encoding and packing the actor's input;
 * 2. the cost of one training update (rollout collection and learning) per TF.js backend;
 * 3. each backend's plain matmul throughput, and an estimate of how much of it the learn step uses.
 *
 * It prints numbers; it asserts nothing.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import * as tf from '@tensorflow/tfjs';
import { defaultConfig, type Config } from '../../../src/rl/config';
import { packDecisions, packSharedDecisions } from '../../../src/rl/decisions';
import { SwarmPolicy } from '../../../src/rl/policy';
import { Trainer } from '../../../src/rl/trainer';
import { randomPolicy } from '../../../src/sim/baselines';
import { SprintEnv } from '../../../src/sim/env';
import { NUM_ACTIONS } from '../../../src/sim/actions';
import { AGENT_DIM, encodeMasks, encodeObservations, GLOBAL_DIM, MODULE_DIM, OBS_DIM } from '../../../src/sim/observe';
import { encodeObservationsReference } from '../../../src/sim/observeReference';
import { encodeSharedObservations, SharedObservations } from '../../../src/sim/observeShared';
import { generateTask, MAX_MODULES, type Family } from '../../../src/sim/task';
import { NODE_BACKENDS, useBackend, type NodeBackend } from '../../lib/backend';
import { median, summarise, type Summary } from '../../lib/stats';
import { choiceFlag, parseFlags, pathFlag, readCommandLine } from '../../lib/cli';
import { requireOutput } from '../../lib/outputFolder';
import { formatTable } from '../../lib/table';

/** Deadline (minutes) of every episode the benchmark plays. */
const DEADLINE = 24;
/** Rollouts stepped together in the environment benchmark. */
const ENV_ROLLOUTS = 256;
/** Seed of the environment benchmark's tasks, work draws and random actions. */
const ENV_SEED = 1;
/** Backward pass counted as twice the forward pass (gradients of inputs and of weights). */
const BACKWARD_FACTOR = 3;

/** Backends measured when --backends is not given, in this order. */
const DEFAULT_BACKENDS = 'cpu,wasm';

const USAGE = `usage: npm run bench -- [--quick] [--backends ${DEFAULT_BACKENDS}] [--json <file>]
  --quick             fewer repetitions (smoke run)
  --backends <list>   comma-separated TF.js backends to measure, from ${NODE_BACKENDS.join(', ')} (default: ${DEFAULT_BACKENDS})
  --json <file>       also write every number to <file> as JSON
  --help              print this help`;

/** Command-line options. */
interface Options {
  quick: boolean;
  backends: NodeBackend[];
  /** File to write the JSON report to, if any. */
  json?: string;
}

/** Reads the flags; throws UsageError on unknown flags, stray arguments or bad values. */
function parseOptions(argv: string[]): Options | 'help' {
  const values = parseFlags(argv, {
    quick: { type: 'boolean', default: false },
    backends: { type: 'string', default: DEFAULT_BACKENDS },
    json: { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (values.help) return 'help';
  const backends: NodeBackend[] = [];
  for (const raw of values.backends.split(',')) {
    const name = choiceFlag('backends', raw.trim(), NODE_BACKENDS);
    if (!backends.includes(name)) backends.push(name);
  }
  return { quick: values.quick, backends, json: values.json === undefined ? undefined : pathFlag('json', values.json) };
}

/** How much to repeat each measurement. */
interface Plan {
  /** Untimed repetitions before the environment measurements. */
  envWarmup: number;
  envReps: number;
  /** Target duration of one environment repetition; episodes per repetition are calibrated to it. */
  envRepMs: number;
  trainWarmup: number;
  /** Measured updates: as many as fit `trainBudgetMs`, within [trainMin, trainMax]. */
  trainMin: number;
  trainMax: number;
  trainBudgetMs: number;
  matmulWarmup: number;
  matmulReps: number;
}

const FULL_PLAN: Plan = {
  envWarmup: 2,
  envReps: 7,
  envRepMs: 300,
  trainWarmup: 2,
  trainMin: 3,
  trainMax: 10,
  trainBudgetMs: 50_000,
  matmulWarmup: 2,
  matmulReps: 7,
};

const QUICK_PLAN: Plan = {
  envWarmup: 1,
  envReps: 3,
  envRepMs: 100,
  trainWarmup: 1,
  trainMin: 2,
  trainMax: 2,
  trainBudgetMs: 0,
  matmulWarmup: 1,
  matmulReps: 3,
};

/** The machine the numbers come from. */
interface Machine {
  cpu: string;
  cores: number;
  node: string;
  platform: string;
  arch: string;
  tfjs: string;
}

function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    arch: os.arch(),
    tfjs: tf.version.tfjs,
  };
}

/** Prints a progress note on stderr, so stdout holds only the report. */
function progress(msg: string): void {
  process.stderr.write(`  .. ${msg}\n`);
}

// ---------------------------------------------------------------------------------------------
// 1. Environment throughput

/** Throughput of one environment variant over the measured repetitions. */
interface EnvVariant {
  episodesPerRep: number;
  /** Milliseconds per simulated minute of each repetition, in order. */
  perRepMs: number[];
  /** Agent-steps (one agent acting for one minute) per second, per repetition. */
  agentStepsPerSec: Summary;
  /** Milliseconds per simulated minute of all B x N agents, per repetition. */
  msPerMinute: Summary;
}

interface EnvResult {
  family: Family;
  agents: number;
  rollouts: number;
  deadline: number;
  /** Minutes each episode plays (the deadline unless every rollout finishes first). */
  minutes: number;
  /** Rollouts that passed all their tests before the deadline under the random actions. */
  finishedRollouts: number;
  withObservations: EnvVariant;
  /** The same with the plain per-feature encoder of the first two rounds (observeReference.ts), timed beside it. */
  withReferenceObservations: EnvVariant;
  /**
   * The step plus the shared-block encoder training stores (observeShared.ts): per rollout the shared
   * block once, per agent its own features; no dense row.
   */
  withSharedObservations: EnvVariant;
  stepOnly: EnvVariant;
  /**
   * The step plus nothing but one copy of a fixed OBS_DIM row per agent into the same slices: the
   * floor any encoder that writes a dense row per agent pays (the batch layout's cost, not the
   * encoder's).
   */
  copyFloor: EnvVariant;
  /** What the actor pays per minute to turn the environment into the policy's input, dense vs shared. */
  actorMinute: ActorMinute;
}

/**
 * Milliseconds per minute (all B x N agents) of encoding the observations and packing the actor's
 * decision rows (`packDecisions` of the dense rows, or `packSharedDecisions` of the shared blocks),
 * timed around those two calls only (the step and the legal-action masks, the same for both, are
 * outside), the two paths taking turns episode by episode.
 */
interface ActorMinute {
  episodesPerRep: number;
  dense: Summary;
  shared: Summary;
  /** Median over repetitions of dense / shared. */
  speedup: number;
}

/** A row per agent copied from one fixed row: the memory traffic of a dense observation, nothing else. */
const floorRow = new Float32Array(OBS_DIM).fill(0.5);
function copyRowPerAgent(env: SprintEnv, out: Float32Array, offset = 0): void {
  const R = env.B * env.N;
  for (let r = 0; r < R; r++) out.set(floorRow, offset + r * OBS_DIM);
}

/**
 * Steps the default preset (the default config's family and team size, ENV_ROLLOUTS rollouts,
 * DEADLINE minutes) with actions the random policy chose beforehand. Every episode replays the same
 * seed, so it follows exactly the recorded trajectory and every repetition does the same work.
 * With observations, each minute is encoded into its own slice of one batch-sized buffer before the
 * step, as rollout collection does (legal-action masks are not encoded).
 */
function benchEnv(plan: Plan): EnvResult {
  const { family, agents } = defaultConfig();
  const B = ENV_ROLLOUTS;
  const tasks = Array.from({ length: B }, (_, b) => generateTask(family, b));
  const env = new SprintEnv(B, agents);

  const policy = randomPolicy(ENV_SEED);
  env.reset(tasks, ENV_SEED, DEADLINE);
  policy.reset?.(env);
  const actions: Int32Array[] = [];
  while (!env.isOver()) {
    const a = new Int32Array(B * agents);
    policy.act(env, a);
    env.step(a);
    actions.push(a);
  }
  let finishedRollouts = 0;
  for (let b = 0; b < B; b++) finishedRollouts += env.finished[b];
  const minutes = actions.length;
  const R = B * agents;
  const obs = new Float32Array(minutes * R * OBS_DIM);
  const shared = new SharedObservations(minutes * B, agents);

  /** Encodes minute t of the episode into its own slice of the batch-sized buffers. */
  type Encoder = ((env: SprintEnv, t: number) => void) | null;
  const dense =
    (encode: typeof encodeObservations): Encoder =>
    (e, t) =>
      encode(e, obs, t * R * OBS_DIM);
  const episodes = (count: number, encode: Encoder): number => {
    const t0 = performance.now();
    for (let e = 0; e < count; e++) {
      env.reset(tasks, ENV_SEED, DEADLINE);
      for (let t = 0; t < minutes; t++) {
        if (encode) encode(env, t);
        env.step(actions[t]);
      }
    }
    return performance.now() - t0;
  };

  // The variants take turns repetition by repetition, so a busy machine slows them alike and their
  // ratio stays meaningful.
  const encoders: Encoder[] = [
    dense(encodeObservations),
    dense(encodeObservationsReference),
    (e, t) => encodeSharedObservations(e, shared, t * B),
    null,
    dense(copyRowPerAgent),
  ];
  progress('environment: calibrating');
  const perRep = encoders.map((encode) => {
    episodes(3, encode);
    const perEpisode = episodes(3, encode) / 3;
    return Math.max(1, Math.round(plan.envRepMs / perEpisode));
  });
  for (let r = 0; r < plan.envWarmup; r++) encoders.forEach((encode, v) => episodes(perRep[v], encode));
  const rate = encoders.map((): number[] => []);
  const perMinute = encoders.map((): number[] => []);
  for (let r = 0; r < plan.envReps; r++) {
    progress(`environment: repetition ${r + 1}/${plan.envReps}`);
    encoders.forEach((encode, v) => {
      const ms = episodes(perRep[v], encode);
      rate[v].push((perRep[v] * minutes * R) / (ms / 1000));
      perMinute[v].push(ms / (perRep[v] * minutes));
    });
  }
  const [withObservations, withReferenceObservations, withSharedObservations, stepOnly, copyFloor] = encoders.map((_, v): EnvVariant => ({
    episodesPerRep: perRep[v],
    perRepMs: perMinute[v],
    agentStepsPerSec: summarise(rate[v]),
    msPerMinute: summarise(perMinute[v]),
  }));
  const actorMinute = benchActorMinute(plan, env, tasks, actions, obs, shared);
  return {
    family,
    agents,
    rollouts: B,
    deadline: DEADLINE,
    minutes,
    finishedRollouts,
    withObservations,
    withReferenceObservations,
    withSharedObservations,
    stepOnly,
    copyFloor,
    actorMinute,
  };
}

/**
 * Repetitions of the actor's per-minute input, taking turns between the dense and the shared path.
 * As rollout collection does, each minute is encoded into its own slice of the batch-sized buffers
 * (`obs`, `shared`) and the actor's rows are packed from that slice.
 */
function benchActorMinute(
  plan: Plan,
  env: SprintEnv,
  tasks: ReturnType<typeof generateTask>[],
  actions: Int32Array[],
  obs: Float32Array,
  shared: SharedObservations,
): ActorMinute {
  const { B, N } = env;
  const R = B * N;
  const minutes = actions.length;
  let M = 1;
  for (const task of tasks) M = Math.max(M, task.modules);
  // The masks of every minute, made once: both paths pack the same.
  const masks: Float32Array[] = [];
  env.reset(tasks, ENV_SEED, DEADLINE);
  for (let t = 0; t < minutes; t++) {
    const mask = new Float32Array(R * NUM_ACTIONS);
    encodeMasks(env, mask);
    masks.push(mask);
    env.step(actions[t]);
  }
  let sink = 0;
  /** Milliseconds of encode + pack per minute over `count` episodes. */
  const episodes = (count: number, useShared: boolean): number => {
    let ms = 0;
    for (let e = 0; e < count; e++) {
      env.reset(tasks, ENV_SEED, DEADLINE);
      for (let t = 0; t < minutes; t++) {
        const t0 = performance.now();
        let rows;
        if (useShared) {
          encodeSharedObservations(env, shared, t * B);
          rows = packSharedDecisions(shared.view(t * B, B), masks[t], R, M, N);
        } else {
          const minute = obs.subarray(t * R * OBS_DIM, (t + 1) * R * OBS_DIM);
          encodeObservations(env, minute);
          rows = packDecisions(minute, masks[t], R, M, N);
        }
        ms += performance.now() - t0;
        sink += rows.trunk[t];
        env.step(actions[t]);
      }
    }
    return ms / (count * minutes);
  };
  progress('actor input: calibrating');
  episodes(1, false);
  episodes(1, true);
  const perEpisode = (episodes(1, false) + episodes(1, true)) * minutes;
  const count = Math.max(1, Math.round(plan.envRepMs / perEpisode));
  const dense: number[] = [];
  const sharedMs: number[] = [];
  for (let r = 0; r < plan.envWarmup + plan.envReps; r++) {
    const d = episodes(count, false);
    const s = episodes(count, true);
    if (r < plan.envWarmup) continue;
    dense.push(d);
    sharedMs.push(s);
  }
  if (!Number.isFinite(sink)) throw new Error('packed rows are not finite');
  return { episodesPerRep: count, dense: summarise(dense), shared: summarise(sharedMs), speedup: median(dense.map((d, i) => d / sharedMs[i])) };
}

// ---------------------------------------------------------------------------------------------
// 2. Training update cost

interface TrainResult {
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
function trainingConfig(): Config {
  return { ...defaultConfig(), tmaxStart: DEADLINE, tmaxEnd: DEADLINE };
}

/** Runs warm-up updates, then as many measured updates as the plan allows, on the current backend. */
async function benchTraining(backend: NodeBackend, plan: Plan): Promise<TrainResult> {
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

// ---------------------------------------------------------------------------------------------
// 3. Matmul throughput and the learn step's share of it

interface MatmulShape {
  label: string;
  m: number;
  k: number;
  n: number;
}

interface MatmulResult extends MatmulShape {
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
function layerMismatches(c: Config): string[] {
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
function matmulShapes(c: Config): MatmulShape[] {
  const rows = rowsPerUpdate(c);
  return [
    { label: 'trunk layer 2', m: rows, k: c.hidden, n: c.hidden },
    { label: 'module scorer', m: rows * MAX_MODULES, k: MODULE_DIM, n: c.scorer },
    { label: 'square', m: 512, k: 512, n: 512 },
  ];
}

/** Times `tf.matMul` of random inputs inside `tf.tidy`, reading the product back each time. */
async function benchMatmul(shape: MatmulShape, plan: Plan): Promise<MatmulResult> {
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

function estimateLearn(c: Config, train: TrainResult, matmul: MatmulResult[]): LearnEstimate {
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

// ---------------------------------------------------------------------------------------------
// Output

/** Formats with a fixed number of decimals. */
function f(x: number, digits = 1): string {
  return x.toFixed(digits);
}

/** Prints rows as an aligned table, indented under its section. */
function table(header: string[], rows: string[][]): void {
  console.log(formatTable(header, rows).replace(/^/gm, '  '));
}

/** "median (min..max)" of a summary. */
function range(s: Summary, digits = 1, scale = 1): string {
  return `${f(s.median * scale, digits)} (${f(s.min * scale, digits)}..${f(s.max * scale, digits)})`;
}

function printEnv(r: EnvResult, plan: Plan): void {
  console.log(`\n1. Environment throughput (Node, one thread)`);
  console.log(
    `  preset: family ${r.family}, ${r.agents} agents, B=${r.rollouts} rollouts, deadline ${r.deadline}; ` +
      `random-policy actions pre-generated (policy cost not measured)`,
  );
  console.log(
    `  ${r.minutes} minutes per episode, ${r.finishedRollouts}/${r.rollouts} rollouts finished early; ` +
      `median of ${plan.envReps} repetitions after ${plan.envWarmup} warm-up, (min..max)`,
  );
  const row = (name: string, v: EnvVariant) => [name, String(v.episodesPerRep), range(v.agentStepsPerSec, 2, 1e-6), range(v.msPerMinute, 3)];
  table(
    ['variant', 'episodes/rep', 'M agent-steps/s', 'ms per minute (B x N agents)'],
    [
      row('step + encodeObservations (dense rows)', r.withObservations),
      row('step + reference encoder (before)', r.withReferenceObservations),
      row('step + encodeSharedObservations (shared blocks, training)', r.withSharedObservations),
      row('step only', r.stepOnly),
      row('step + copy of one row per agent', r.copyFloor),
    ],
  );
  const ratios = r.withReferenceObservations.perRepMs.map((ref, i) => ref / r.withObservations.perRepMs[i]);
  console.log(`  fast vs reference encoder, same repetitions: ${f(median(ratios), 2)}x the agent-steps per second (median of per-repetition ratios)`);
  const whole = r.withObservations.msPerMinute.median;
  const step = r.stepOnly.msPerMinute.median;
  console.log(
    `  split of one minute: env.step ${f(step, 3)} ms, encodeObservations ~${f(whole - step, 3)} ms (${f((100 * (whole - step)) / whole, 0)}% of the minute)`,
  );
  const copy = r.copyFloor.msPerMinute.median - step;
  console.log(
    `  floor of a dense observation: copying one ${OBS_DIM}-float row per agent takes ~${f(copy, 3)} ms a minute (${f((100 * copy) / (whole - step), 0)}% of the encoder's time)`,
  );
  const sharedRatios = r.withObservations.perRepMs.map((d, i) => d / r.withSharedObservations.perRepMs[i]);
  console.log(
    `  shared blocks: encodeSharedObservations ~${f(r.withSharedObservations.msPerMinute.median - step, 3)} ms a minute; ` +
      `step + shared blocks ${f(median(sharedRatios), 2)}x the agent-steps per second of step + dense rows (median of per-repetition ratios)`,
  );
  const a = r.actorMinute;
  console.log(
    `  the actor's input per minute (encode + pack the decision rows of all B x N agents, as collect does; masks not counted;` +
      ` ${a.episodesPerRep} episode(s) per path and repetition, taking turns):`,
  );
  console.log(
    `    dense rows + packDecisions ${range(a.dense, 3)} ms; shared blocks + packSharedDecisions ${range(a.shared, 3)} ms; ${f(a.speedup, 2)}x faster (median of per-repetition ratios)`,
  );
}

function printTraining(results: TrainResult[]): void {
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

/** Everything measured on one backend besides the training updates. */
interface BackendResult {
  backend: NodeBackend;
  /** How the backend runs (threads, SIMD). */
  detail: string;
  matmul: MatmulResult[];
  estimate: LearnEstimate;
}

function printMatmul(byBackend: BackendResult[], mismatches: string[], plan: Plan): void {
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

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const opts = readCommandLine('bench', USAGE, parseOptions);
  if (opts.json) requireOutput('bench', 'json', opts.json, 'file');
  const plan = opts.quick ? QUICK_PLAN : FULL_PLAN;
  const started = performance.now();
  const m = machine();
  console.log(`Swarm Playground benchmark${opts.quick ? ' (--quick)' : ''}`);
  console.log(`machine: ${m.cpu}, ${m.cores} cores, node ${m.node}, ${m.platform} ${m.arch}, TF.js ${m.tfjs}`);

  const env = benchEnv(plan);
  printEnv(env, plan);

  const config = trainingConfig();
  const training: TrainResult[] = [];
  const byBackend: BackendResult[] = [];
  let mismatches: string[] = [];
  for (const backend of opts.backends) {
    await useBackend(backend);
    if (byBackend.length === 0) mismatches = layerMismatches(config);
    const detail = backend === 'wasm' ? `single-threaded, SIMD ${(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')) ? 'on' : 'off'}` : 'plain JavaScript';
    progress(`${backend} (${detail}): training`);
    const train = await benchTraining(backend, plan);
    training.push(train);
    const matmul: MatmulResult[] = [];
    for (const shape of matmulShapes(config)) {
      progress(`${backend}: matmul ${shape.label}`);
      matmul.push(await benchMatmul(shape, plan));
    }
    byBackend.push({ backend, detail, matmul, estimate: estimateLearn(config, train, matmul) });
  }
  printTraining(training);
  console.log(`  backends: ${byBackend.map((b) => `${b.backend} = ${b.detail}`).join('; ')}`);
  printMatmul(byBackend, mismatches, plan);

  const wallSeconds = (performance.now() - started) / 1000;
  console.log(`\nbench wall time: ${f(wallSeconds, 1)} s`);
  if (opts.json) {
    const report = {
      date: new Date().toISOString(),
      options: opts,
      plan,
      machine: m,
      environment: env,
      training: { config, results: training },
      backends: byBackend,
      flopCountMatchesPolicy: mismatches.length === 0,
      wallSeconds,
    };
    writeFileSync(opts.json, JSON.stringify(report, null, 2) + '\n');
    console.log(`wrote ${opts.json}`);
  }
}

await main();
