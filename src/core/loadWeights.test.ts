import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RunRecorder, lastCheckpoint, showcaseModules } from './recorder';
import { decodeRunFile, encodeRunFile } from './runFile';
import { NUM_ACTIONS } from '../sim/actions';
import { OBS_DIM } from '../sim/observe';
import { defaultConfig, type Config } from '../rl/config';
import type { SwarmPolicy } from '../rl/policy';
import { Trainer } from '../rl/trainer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny: Config = { ...defaultConfig(), agents: 3, tasksPerUpdate: 1, groupSize: 2, updates: 2, tmaxStart: 6, tmaxEnd: 6, hidden: 16, scorer: 8 };

/** Action probabilities of a policy on a fixed batch of observations, all actions legal. */
function probabilities(p: SwarmPolicy): number[][] {
  return tf.tidy(() => {
    const obs = tf.randomUniform([5, OBS_DIM], 0, 1, 'float32', 11) as tf.Tensor2D;
    const mask = tf.ones([5, NUM_ACTIONS]) as tf.Tensor2D;
    return tf.exp(p.logProbs(obs, mask, tiny.agents).logp).arraySync() as number[][];
  });
}

describe('Trainer.loadWeights', () => {
  it('a trainer started from saved weights (through a run file) gives the same action probabilities', async () => {
    const source = new Trainer(tiny);
    const recorder = new RunRecorder(tiny);
    while (!source.finished) {
      const r = await source.step();
      recorder.push({
        metrics: r.metrics,
        events: r.events,
        modules: showcaseModules(r.showcaseTask, r.showcaseWork),
        total: source.totalUpdates,
        references: { chain: 0, bestOfN: 0, scripted: 0 },
      });
    }
    recorder.addCheckpoint(source.update, source.policy.toJSON());
    const read = decodeRunFile(encodeRunFile(recorder.snapshot()));
    if (!read.ok) throw new Error(read.error);
    const checkpoint = lastCheckpoint(read.run);
    expect(checkpoint?.updates).toBe(2);

    const target = new Trainer({ ...tiny, seed: 99 });
    expect(probabilities(target.policy)).not.toEqual(probabilities(source.policy));
    target.loadWeights(checkpoint!.weights);
    expect(probabilities(target.policy)).toEqual(probabilities(source.policy));
    expect(target.policy.toJSON().weights).toEqual(source.policy.toJSON().weights);
    await target.step();
    source.dispose();
    target.dispose();
  }, 60_000);

  it('refuses weights of another network shape and keeps its own', () => {
    const a = new Trainer(tiny);
    const b = new Trainer({ ...tiny, hidden: 32 });
    const before = a.policy.toJSON();
    expect(() => a.loadWeights(b.policy.toJSON())).toThrow('the weights are for a policy of hidden 32 / scorer 8, this trainer has 16 / 8');
    expect(a.policy.toJSON()).toEqual(before);
    a.dispose();
    b.dispose();
  });
});
