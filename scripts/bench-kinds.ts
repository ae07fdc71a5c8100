/**
 * The per-kind log-softmax of the policy, side by side: the first round's one slice and
 * log-sum-exp per kind (`referenceLogProbs`) against the padded single log-softmax of
 * `SwarmPolicy.logProbs`, in one process, alternating, on the same batch: ms per gradient step of a
 * policy-gradient loss over R decision rows (the learn step's shape), median of `--repeats`.
 *
 *   npm run bench:kinds -- [--rows 16000] [--repeats 7] [--backend wasm|cpu]
 */
import * as tf from '@tensorflow/tfjs';
import { SwarmPolicy } from '../src/rl/policy';
import { referenceLogProbs } from '../src/rl/referenceLogProbs';
import { NUM_ACTIONS } from '../src/sim/actions';
import { OBS_DIM } from '../src/sim/observe';
import { NODE_BACKENDS, useBackend, type NodeBackend } from './lib/backend';
import { parseFlags, readCommandLine, UsageError } from './lib/cli';

const USAGE = 'usage: npm run bench:kinds -- [--rows 16000] [--repeats 7] [--backend wasm|cpu]';

function parseOptions(argv: string[]): { rows: number; repeats: number; backend: NodeBackend } | 'help' {
  const v = parseFlags(argv, { rows: { type: 'string', default: '16000' }, repeats: { type: 'string', default: '7' }, backend: { type: 'string', default: 'wasm' }, help: { type: 'boolean', default: false } });
  if (v.help) return 'help';
  const int = (name: string, text: string, lo: number, hi: number) => {
    if (!/^[0-9]+$/.test(text) || Number(text) < lo || Number(text) > hi) throw new UsageError(`--${name} takes a whole number from ${lo} to ${hi}, not "${text}"`);
    return Number(text);
  };
  if (!NODE_BACKENDS.includes(v.backend as NodeBackend)) throw new UsageError(`--backend: "${v.backend}" is not one of ${NODE_BACKENDS.join(', ')}`);
  return { rows: int('rows', v.rows, 1, 200000), repeats: int('repeats', v.repeats, 1, 100), backend: v.backend as NodeBackend };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const o = readCommandLine('bench:kinds', USAGE, parseOptions);
  await useBackend(o.backend);
  const R = o.rows;
  const policy = SwarmPolicy.create({ hidden: 64, scorer: 32 }, 1);
  const obs = tf.randomUniform([R, OBS_DIM], 0, 1, 'float32', 1) as tf.Tensor2D;
  const mask = tf.tidy(() => tf.randomUniform([R, NUM_ACTIONS], 0, 1, 'float32', 2).greater(0.3).toFloat()) as tf.Tensor2D;
  const hot = tf.tidy(() => tf.oneHot(tf.randomUniform([R], 0, NUM_ACTIONS, 'int32', 3) as tf.Tensor1D, NUM_ACTIONS).mul(mask));
  const adv = tf.randomNormal([R], 0, 1, 'float32', 4);
  const vars = Object.values(policy.vars);
  const step = (logp: () => tf.Tensor2D) => {
    const t0 = performance.now();
    const { value, grads } = tf.variableGrads(() => tf.neg(tf.mean(tf.mul(tf.sum(tf.mul(logp(), hot), 1), adv))) as tf.Scalar, vars);
    value.dataSync();
    tf.dispose([value, ...Object.values(grads)]);
    return performance.now() - t0;
  };
  const ways: [string, () => tf.Tensor2D][] = [
    ['one slice and log-sum-exp per kind (first round)', () => referenceLogProbs(policy, obs, mask, 8)],
    ['padded, one log-softmax (now)', () => policy.logProbs(obs, mask, 8).logp],
  ];
  for (const [, f] of ways) step(f); // warm-up
  const times: number[][] = ways.map(() => []);
  for (let i = 0; i < o.repeats; i++) ways.forEach(([, f], w) => times[w].push(step(f)));
  console.log(`backend ${o.backend}, ${R} decision rows, gradient of a policy-gradient loss, median of ${o.repeats} alternating runs:`);
  ways.forEach(([name], w) => console.log(`  ${name.padEnd(50)} ${median(times[w]).toFixed(0)} ms`));
  console.log(`  ratio ${(median(times[0]) / median(times[1])).toFixed(2)}x`);
}

void main();
