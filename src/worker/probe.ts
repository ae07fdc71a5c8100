import * as tf from '@tensorflow/tfjs';
import type { Config } from '../rl/config';
import { SwarmPolicy } from '../rl/policy';
import { NUM_ACTIONS } from '../sim/actions';
import { OBS_DIM } from '../sim/observe';
import { Rng } from '../sim/rng';

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
 * observations, every action legal), loss as in imitation, gradients of every weight, and the
 * gradient norm read back (so asynchronous backends finish the work). Weights are created once per
 * backend; the inputs are uploaded on every run, as training does.
 */
export function createProbe(config: Config): ModelProbe {
  const rows = probeRows(config);
  const rng = new Rng(config.seed, 977);
  const obs = Float32Array.from({ length: rows * OBS_DIM }, () => rng.next());
  const mask = new Float32Array(rows * NUM_ACTIONS).fill(1);
  const actions = Int32Array.from({ length: rows }, () => Math.floor(rng.next() * NUM_ACTIONS));
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
        const obsT = tf.tensor2d(obs, [rows, OBS_DIM]);
        const maskT = tf.tensor2d(mask, [rows, NUM_ACTIONS]);
        const hotT = tf.oneHot(tf.tensor1d(actions, 'int32'), NUM_ACTIONS);
        const { grads } = tf.variableGrads(
          () => tf.neg(tf.mean(tf.sum(tf.mul(policy.logProbs(obsT, maskT, config.agents).logp, hotT), 1))) as tf.Scalar,
          Object.values(policy.vars),
        );
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
