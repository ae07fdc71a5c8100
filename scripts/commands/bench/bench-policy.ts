/**
 * The policy's gradient step, side by side, in one process, alternating, on the same decision rows,
 * three ways: the first engine's (`referenceLogProbs`, 2026-11-29: the forward pass over flat observations, one
 * slice and log-sum-exp per action kind, differentiated by TF.js's tape), that of 2026-11-30
 * (`SwarmPolicy.heads` over rows packed once in JavaScript, differentiated by the tape), and today's
 * (`lossAndGradients`: the same heads with the hand-written backward pass the trainer uses), and
 * today's again with the wasm kernels turned off (`rl/wasmKernels.ts`: TF.js's ops instead). Each
 * timed step is the gradient of a policy-gradient loss with an entropy bonus over R decision rows
 * (the learn step's shape); medians of `--repeats`. With `--profile` it also prints where today's
 * step spends its time, kernel by kernel (tf.profile).
 *
 *   npm run bench:policy -- [--rows 6144] [--repeats 7] [--backend wasm|cpu] [--profile]
 */
import * as tf from '@tensorflow/tfjs';
import { packChoices, packDecisions } from '../../../src/rl/decisions';
import { choiceTensors, chosenLogProb, decisionTensors, headsEntropy, SwarmPolicy } from '../../../src/rl/policy';
import { lossAndGradients } from '../../../src/rl/policyGradient';
import { setWasmKernels, wasmKernelsActive } from '../../../src/rl/wasmKernels';
import { referenceLogProbs } from '../../../src/rl/referenceLogProbs';
import { A_DM, A_IDLE, A_POST, NUM_ACTIONS } from '../../../src/sim/actions';
import { OBS_DIM } from '../../../src/sim/observe';
import { Rng } from '../../../src/sim/rng';
import { MAX_MODULES } from '../../../src/sim/task';
import { NODE_BACKENDS, useBackend, type NodeBackend } from '../../lib/backend';
import { choiceFlag, intFlag, parseFlags, readCommandLine } from '../../lib/cli';
import { median } from '../../lib/stats';

const USAGE = 'usage: npm run bench:policy -- [--rows 6144] [--repeats 7] [--backend wasm|cpu] [--profile]';
const AGENTS = 8;
/** The default config's entropy coefficient. */
const ENTROPY = 0.0002;

interface Options {
  rows: number;
  repeats: number;
  backend: NodeBackend;
  profile: boolean;
}

function parseOptions(argv: string[]): Options | 'help' {
  const v = parseFlags(argv, {
    rows: { type: 'string', default: '6144' },
    repeats: { type: 'string', default: '7' },
    backend: { type: 'string', default: 'wasm' },
    profile: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help';
  return {
    rows: intFlag('rows', v.rows, 1, 200000),
    repeats: intFlag('repeats', v.repeats, 1, 100),
    backend: choiceFlag('backend', v.backend, NODE_BACKENDS),
    profile: v.profile,
  };
}

/** R decision rows of a team of AGENTS: random observations, masks shaped as the env makes them, a legal choice each. */
function decisionRows(R: number) {
  const rng = new Rng(1, 2);
  const obs = Float32Array.from({ length: R * OBS_DIM }, () => rng.next());
  const mask = new Float32Array(R * NUM_ACTIONS);
  const actions = new Int32Array(R);
  for (let r = 0; r < R; r++) {
    const b = r * NUM_ACTIONS;
    for (let a = 0; a < NUM_ACTIONS; a++) if (rng.next() < 0.7 && !(a >= A_DM + AGENTS && a < A_POST)) mask[b + a] = 1;
    mask[b + A_IDLE] = 1;
    let pick = Math.floor(rng.next() * NUM_ACTIONS);
    while (mask[b + pick] === 0) pick = (pick + 1) % NUM_ACTIONS;
    actions[r] = pick;
  }
  return { obs, mask, actions };
}

async function main(): Promise<void> {
  const o = readCommandLine('bench:policy', USAGE, parseOptions);
  await useBackend(o.backend);
  const R = o.rows;
  const policy = SwarmPolicy.create({ hidden: 64, scorer: 32 }, 1);
  const { obs, mask, actions } = decisionRows(R);
  const obsT = tf.tensor2d(obs, [R, OBS_DIM]);
  const maskT = tf.tensor2d(mask, [R, NUM_ACTIONS]);
  const hotT = tf.oneHot(tf.tensor1d(actions, 'int32'), NUM_ACTIONS);
  const rows = decisionTensors(packDecisions(obs, mask, R, MAX_MODULES, AGENTS));
  const choices = choiceTensors(packChoices(actions, R, MAX_MODULES, AGENTS), R, MAX_MODULES, AGENTS);
  const adv = tf.randomNormal([R], 0, 1, 'float32', 4);
  const vars = Object.values(policy.vars);
  const loss = (logp: tf.Tensor1D, entropy: tf.Tensor1D) => tf.sub(tf.neg(tf.mean(tf.mul(logp, adv))), tf.mul(ENTROPY, tf.mean(entropy))) as tf.Scalar;
  const timed = (grads: () => { value: tf.Tensor; grads: tf.NamedTensorMap }) => () => {
    const t0 = performance.now();
    const g = grads();
    g.value.dataSync();
    for (const t of Object.values(g.grads)) t.dataSync();
    tf.dispose([g.value, ...Object.values(g.grads)]);
    return performance.now() - t0;
  };
  const taped = (f: () => tf.Scalar) => timed(() => tf.variableGrads(f, vars));
  const ways: [string, () => number][] = [
    [
      'flat observations, a slice per kind (2026-11-29)',
      taped(() => {
        const logp = referenceLogProbs(policy, obsT, maskT, AGENTS);
        const p = tf.exp(logp);
        return loss(tf.sum(tf.mul(logp, hotT), 1) as tf.Tensor1D, tf.neg(tf.sum(tf.mul(p, tf.maximum(logp, -1e4)), 1)) as tf.Tensor1D);
      }),
    ],
    [
      "heads over packed rows, TF.js's tape (2026-11-30)",
      taped(() => {
        const heads = policy.heads(rows);
        return loss(chosenLogProb(heads, choices), headsEntropy(heads));
      }),
    ],
    [
      'the same heads, hand-written backward pass (now)',
      timed(() => {
        const g = lossAndGradients(policy, rows, choices, (chosen, entropy) => loss(chosen, entropy));
        g.entropy.dispose();
        return { value: g.loss, grads: g.grads };
      }),
    ],
    [
      "the same without the wasm kernels (TF.js's ops)",
      timed(() => {
        setWasmKernels(false);
        try {
          const g = lossAndGradients(policy, rows, choices, (chosen, entropy) => loss(chosen, entropy));
          g.entropy.dispose();
          return { value: g.loss, grads: g.grads };
        } finally {
          setWasmKernels(true);
        }
      }),
    ],
  ];
  for (const [, f] of ways) f();
  const times: number[][] = ways.map(() => []);
  for (let i = 0; i < o.repeats; i++) ways.forEach(([, f], w) => times[w].push(f()));
  console.log(
    `backend ${o.backend}, ${R} decision rows of ${AGENTS} agents, gradient of a policy-gradient loss with an entropy bonus, median of ${o.repeats} alternating runs:`,
  );
  ways.forEach(([name], w) => console.log(`  ${name.padEnd(52)} ${median(times[w]).toFixed(1)} ms`));
  const now = times[2];
  console.log(
    `  today's step is ${median(times[0].map((t, i) => t / now[i])).toFixed(2)}x as fast as the one of 2026-11-29 and ${median(times[1].map((t, i) => t / now[i])).toFixed(2)}x as fast as the one of 2026-11-30 (medians of the per-run ratios)`,
  );
  if (wasmKernelsActive())
    console.log(
      `  the wasm kernels make it ${median(times[3].map((t, i) => t / now[i])).toFixed(2)}x as fast as the same step with TF.js's ops (median of the per-run ratios)`,
    );
  else console.log(`  (the wasm kernels do not run on ${o.backend}: the last two ways are the same step)`);
  if (o.profile) await profile(ways[2][1]);
}

/** Kernel-by-kernel time of one call of `f` (tf.profile), grouped by kernel and input shapes. */
async function profile(f: () => void): Promise<void> {
  const info = await tf.profile(f);
  const groups = new Map<string, { calls: number; ms: number }>();
  for (const k of info.kernels) {
    if (/scope|__op|forward/.test(k.name)) continue; // wrappers: their kernels are counted themselves
    const key = `${k.name} ${JSON.stringify(k.inputShapes)}`;
    const g = groups.get(key) ?? { calls: 0, ms: 0 };
    g.calls++;
    g.ms += typeof k.kernelTimeMs === 'number' ? k.kernelTimeMs : 0;
    groups.set(key, g);
  }
  const sorted = [...groups.entries()].sort((a, b) => b[1].ms - a[1].ms);
  const total = sorted.reduce((s, [, g]) => s + g.ms, 0);
  console.log(`\nprofile of one step of today's way: ${info.kernels.length} kernels, ${total.toFixed(1)} ms in kernels`);
  for (const [key, g] of sorted.slice(0, 25)) console.log(`  ${g.ms.toFixed(1).padStart(7)} ms ${String(g.calls).padStart(4)}x  ${key}`);
}

void main();
