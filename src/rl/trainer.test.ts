import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { mean, runEpisodes } from '../sim/evaluate';
import { ActingRecord } from './actingRecord';
import { PolicyActor } from './actor';
import { evaluationTasks } from './compare';
import { defaultConfig, type Config } from './config';
import { Trainer } from './trainer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny: Config = {
  ...defaultConfig(),
  family: 'coupled',
  agents: 3,
  tasksPerUpdate: 2,
  groupSize: 6,
  updates: 40,
  tmaxStart: 14,
  tmaxEnd: 14,
  epochs: 1,
  lr: 0.01,
  hidden: 32,
  scorer: 16,
};

async function evaluate(trainer: Trainer): Promise<number> {
  const tasks = evaluationTasks('coupled', 24);
  const run = await runEpisodes(new PolicyActor(trainer.policy, 99), tasks, tiny.agents, 5, tiny.tmaxEnd);
  return mean(run.stats.map((s) => s.ret));
}

describe('Trainer', () => {
  it('a short fixed-seed run ends with a higher return than the untrained policy', async () => {
    const trainer = new Trainer(tiny);
    const before = await evaluate(trainer);
    while (!trainer.finished) await trainer.step();
    const after = await evaluate(trainer);
    expect(after).toBeGreaterThan(before + 0.05);
    trainer.dispose();
  }, 120_000);

  it('is deterministic for a seed on one backend', async () => {
    const run = async () => {
      const t = new Trainer({ ...tiny, updates: 3 });
      const rets: number[] = [];
      while (!t.finished) rets.push((await t.step()).metrics.ret);
      const w = Array.from(t.policy.vars.g1.dataSync().slice(0, 8));
      t.dispose();
      return { rets, w };
    };
    expect(await run()).toEqual(await run());
  });

  it("learns each RLCR update's first epoch from the actor's recorded forward passes, and frees them", async () => {
    const take = vi.spyOn(ActingRecord.prototype, 'take');
    const t = new Trainer({ ...tiny, prior: 1, updates: 2, epochs: 2 });
    await t.step(); // the prior: the teacher plays, nothing is recorded
    expect(take).not.toHaveBeenCalled();
    await t.step();
    const tensors = tf.memory().numTensors;
    await t.step();
    expect(take).toHaveBeenCalledTimes(2);
    for (const r of take.mock.results) expect(r.value).not.toBeNull();
    expect(t.firstEpochFromActing).toBe(true);
    expect(tf.memory().numTensors).toBe(tensors); // an update leaves no tensor behind
    t.dispose();
    // The orchestrator learns from agent 0 only, not from every decision the actor scores: no record.
    const o = new Trainer({ ...tiny, agents: 4, structure: 'orchestrator', updates: 1 });
    await o.step();
    expect(take).toHaveBeenCalledTimes(2);
    expect(o.firstEpochFromActing).toBe(false);
    o.dispose();
    take.mockRestore();
  });

  it('runs the imitation prior first, then RLCR, and the ablations train without errors', async () => {
    const t = new Trainer({ ...tiny, prior: 2, updates: 2 });
    const phases: string[] = [];
    while (!t.finished) phases.push((await t.step()).metrics.phase);
    expect(phases).toEqual(['prior', 'prior', 'rlcr', 'rlcr']);
    t.dispose();
    for (const variant of [{ critic: true, lambda: 0.95 }, { rewards: 'individual' as const }, { latencyPenalty: 0.5 }, { advantage: 'rloo' as const, epochs: 3 }]) {
      const v = new Trainer({ ...tiny, updates: 2, ...variant });
      while (!v.finished) {
        const { metrics } = await v.step();
        expect(Number.isFinite(metrics.loss)).toBe(true);
        expect(Number.isFinite(metrics.gradNorm)).toBe(true);
      }
      v.dispose();
    }
  });

  it('imitation brings the policy close to the scripted organisation', async () => {
    const t = new Trainer({ ...tiny, prior: 40, updates: 1 });
    const losses: number[] = [];
    for (let u = 0; u < 40; u++) losses.push((await t.step()).metrics.loss);
    expect(mean(losses.slice(-5))).toBeLessThan(mean(losses.slice(0, 5)) * 0.6);
    t.dispose();
  }, 60_000);

  it('reconfigure applies a new deadline schedule and learning rate mid-run, and refuses structural changes', async () => {
    const t = new Trainer({ ...tiny, updates: 10, tmaxStart: 6, tmaxEnd: 6 });
    await t.step();
    expect(t.tmaxAt(5)).toBe(6);
    expect(t.reconfigure({ ...t.config, tmaxStart: 6, tmaxEnd: 16, lr: 0.001 })).toBe(true);
    expect(t.tmaxAt(0)).toBe(6);
    expect(t.tmaxAt(5)).toBeGreaterThan(6);
    expect(t.tmaxAt(10)).toBe(16);
    const { metrics } = await t.step();
    expect(metrics.update).toBe(1);
    expect(metrics.tmax).toBe(t.tmaxAt(1));
    expect(Number.isFinite(metrics.loss)).toBe(true);
    const before = t.config;
    expect(t.reconfigure({ ...before, agents: 4, tmaxEnd: 30 })).toBe(false);
    expect(t.reconfigure({ ...before, hidden: 16 })).toBe(false);
    expect(t.config).toBe(before);
    expect(t.tmaxAt(10)).toBe(16);
    t.dispose();
  });
});

describe('observations as shared blocks', () => {
  /** Everything an update reports except its timings, the showcase's events, and all the weights after it. */
  async function trace(config: Config, denseObservations: boolean) {
    const t = new Trainer(config, undefined, { denseObservations });
    const updates: unknown[] = [];
    while (!t.finished) {
      const { metrics, events } = await t.step();
      const { collectMs: _c, learnMs: _l, ...rest } = metrics;
      updates.push({ ...rest, events });
    }
    const weights = Object.values(t.policy.vars).map((v) => Array.from(v.dataSync()));
    const snapshot = t.workers?.snapshot ? Object.values(t.workers.snapshot.vars).map((v) => Array.from(v.dataSync())) : null;
    t.dispose();
    return { updates, weights, snapshot };
  }

  const cases: Partial<Config>[] = [
    {},
    { critic: true, lambda: 0.95 },
    { agents: 4, structure: 'ceo', budget: 30 },
    { agents: 6, structure: 'islands', islands: 2 },
    { agents: 4, structure: 'orchestrator', shaping: 0.5 },
    { agents: 4, structure: 'orchestrator', workerPolicy: 'snapshot', snapshotAt: 2 },
  ];
  for (const setting of cases) {
    it(`train bit for bit the weights dense rows train (${JSON.stringify(setting)})`, async () => {
      const config = { ...tiny, groupSize: 3, tmaxStart: 10, tmaxEnd: 12, prior: 1, updates: 2, lr: 0.03, ...setting };
      const shared = await trace(config, false);
      const dense = await trace(config, true);
      expect(shared.updates).toEqual(dense.updates);
      expect(shared.weights).toEqual(dense.weights);
      expect(shared.snapshot).toEqual(dense.snapshot);
      expect(shared.snapshot === null).toBe(setting.workerPolicy !== 'snapshot'); // the frozen workers played from shared blocks too
    }, 60_000);
  }
});
