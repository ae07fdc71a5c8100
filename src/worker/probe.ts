import * as tf from '@tensorflow/tfjs';
import type { Config } from '../rl/config';
import { packChoices, packDecisions } from '../rl/decisions';
import { choiceTensors, decisionTensors, SwarmPolicy } from '../rl/policy';
import { lossAndGradients } from '../rl/policyGradient';
import { A_DM, A_POST, NUM_ACTIONS } from '../sim/actions';
import { OBS_DIM } from '../sim/observe';
import { Rng } from '../sim/rng';
import { MAX_MODULES } from '../sim/task';

/** Bounds of the probe batch (decision rows). */
const MIN_ROWS = 64;
const MAX_ROWS = 2048;

/** A forward+backward step of the real model, runnable on whichever backend TF.js is on. */
export interface ModelProbe {
  /** Rows per probe batch. */
  readonly rows: number;
  run(): Promise<void>;
  /** Frees the probe's weights on every backend it ran on. */
  dispose(): void;
}

/**
 * Decision rows one update of `config` learns from, about: every agent of every rollout at every
 * minute of a mid-schedule deadline, within [MIN_ROWS, MAX_ROWS].
 */
export function probeRows(config: Config): number {
  const minutes = Math.round((config.tmaxStart + config.tmaxEnd) / 2);
  const rows = config.tasksPerUpdate * config.groupSize * config.agents * minutes;
  return Math.min(MAX_ROWS, Math.max(MIN_ROWS, rows));
}

/**
 * A probe for `chooseBackend`: the policy of `config`'s shape, on a batch of training size (random
 * observations, every action legal), one epoch of the learn step as the trainer runs it (the rows
 * packed and uploaded, `lossAndGradients` with the prior's loss), and the gradient norm read back
 * (so asynchronous backends finish the work). Weights are created once per backend; the inputs are
 * packed and uploaded on every run, as training does.
 */
export function createProbe(config: Config): ModelProbe {
  const rows = probeRows(config);
  const rng = new Rng(config.seed, 977);
  const obs = Float32Array.from({ length: rows * OBS_DIM }, () => rng.next());
  const mask = new Float32Array(rows * NUM_ACTIONS).fill(1);
  // Legal choices of the team's size: work or claim of any module, a DM to a teammate, post, read, idle.
  const legal = [...Array(NUM_ACTIONS).keys()].filter((a) => a < A_DM || a >= A_POST || a - A_DM < config.agents);
  const actions = Int32Array.from({ length: rows }, () => legal[Math.floor(rng.next() * legal.length)]);
  const policies = new Map<string, SwarmPolicy>();

  const policyHere = (): SwarmPolicy => {
    const backend = tf.getBackend();
    let p = policies.get(backend);
    if (!p) {
      p = SwarmPolicy.create({ hidden: config.hidden, scorer: config.scorer }, config.seed);
      policies.set(backend, p);
    }
    return p;
  };

  return {
    rows,
    async run() {
      const policy = policyHere();
      const normT = tf.tidy(() => {
        const d = decisionTensors(packDecisions(obs, mask, rows, MAX_MODULES, config.agents));
        const c = choiceTensors(packChoices(actions, rows, MAX_MODULES, config.agents), rows, MAX_MODULES, config.agents);
        const { grads } = lossAndGradients(policy, d, c, (chosen) => tf.neg(tf.mean(chosen)) as tf.Scalar);
        return tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g)))));
      });
      try {
        await normT.data();
      } finally {
        normT.dispose();
      }
    },
    dispose() {
      for (const p of policies.values()) p.dispose();
      policies.clear();
    },
  };
}
