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
import { NODE_BACKENDS, useBackend, type NodeBackend } from '../../lib/backend';
import { choiceFlag, parseFlags, pathFlag, readCommandLine } from '../../lib/cli';
import { requireOutput } from '../../lib/outputFolder';
import { f, FULL_PLAN, progress, QUICK_PLAN } from '../../lib/bench/plan';
import { benchEnv, printEnv } from '../../lib/bench/env';
import { benchTraining, printTraining, trainingConfig, type TrainResult } from '../../lib/bench/training';
import { benchMatmul, estimateLearn, layerMismatches, matmulShapes, printMatmul, type BackendResult, type MatmulResult } from '../../lib/bench/matmul';

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
