import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { scriptedOrganisation } from '../sim/baselines';
import { scriptedCeo } from '../sim/ceo';
import { defaultConfig, type Config } from './config';
import { SwarmPolicy } from './policy';
import type { Batch } from './rollout';
import { trainingStructure } from './trainingStructure';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const config = (over: Partial<Config>): Config => ({ ...defaultConfig(), agents: 4, ...over });

/** A batch of B rollouts whose anytime curves are given per rollout (tmax = curve length - 1). */
function batchOf(curves: number[][]): Batch {
  const H = curves[0].length;
  const history = new Float32Array(curves.length * H);
  curves.forEach((c, b) => history.set(c, b * H));
  return {
    B: curves.length,
    N: 1,
    R: curves.length,
    T: H - 1,
    tmax: H - 1,
    returns: Float32Array.from(curves, (c) => c[H - 1]),
    tEnd: Float32Array.from(curves, (c) => (c.indexOf(1) >= 0 ? c.indexOf(1) : H - 1)),
    history,
  } as unknown as Batch;
}

describe('what a structure changes in training', () => {
  const policy = SwarmPolicy.create({ hidden: 8, scorer: 4 });

  it('flat: no hooks, the scripted organisation as the prior, the batch as it is, no metrics', () => {
    const s = trainingStructure(config({ structure: 'flat' }), policy);
    const batch = batchOf([
      [0, 0.5, 1],
      [0, 0.2, 0.4],
    ]);
    expect(s.prepare(s.structure.createEnv(1), 0, config({}))).toBeUndefined();
    expect(s.behaviour()).toBe(scriptedOrganisation);
    expect(s.teams(batch).returns).toBe(batch.returns);
    expect(s.shapingWeight(0, config({ shaping: 1 }))).toBe(0);
    expect(s.workers).toBeNull();
  });

  it('islands: a swarm rollout is its best island, ending when its first island ends', () => {
    const s = trainingStructure(config({ structure: 'islands', islands: 2 }), policy);
    const teams = s.teams(
      batchOf([
        [0, 0.5, 0.6],
        [0, 0.7, 1],
        [0, 0.1, 0.2],
        [0, 0.3, 0.3],
      ]),
    );
    expect(teams.I).toBe(2);
    expect(Array.from(teams.returns)).toEqual([1, Math.fround(0.3)]);
    expect(Array.from(teams.tEnd)).toEqual([2, 2]);
    expect(Array.from(teams.history.subarray(0, 3))).toEqual([0, Math.fround(0.7), 1]);
  });

  it('CEO: the budget set before each update reaches the rules, and the prior is the scripted CEO', () => {
    const s = trainingStructure(config({ structure: 'ceo', budget: 30 }), policy);
    const env = s.structure.createEnv(1);
    expect(s.prepare(env, 0, config({ structure: 'ceo', budget: 17 }))).toEqual({ logCount: 1 });
    expect((env.rules as unknown as { budget: number }).budget).toBe(17);
    expect(s.behaviour()).toBe(scriptedCeo);
  });

  it('orchestrator: frozen workers in the hooks, only the orchestrator learns, a shaping weight that anneals', () => {
    const c = config({ structure: 'orchestrator', workerPolicy: 'scripted', shaping: 0.4, shapingAnneal: 10, prior: 0 });
    const s = trainingStructure(c, policy);
    const hooks = s.prepare(s.structure.createEnv(1), 0, c);
    expect(hooks?.workers).toBe(s.workers);
    expect(Array.from(hooks?.learners ?? [])).toEqual([1, 0, 0, 0]);
    expect(s.shapingWeight(5, c)).toBeCloseTo(0.2);
    expect(s.metrics(s.structure.createEnv(1), 0.2).shapingWeight).toBe(0.2);
    s.dispose();
  });
});
