import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { mean, runEpisodes } from '../sim/evaluate';
import { ActingRecord } from './actingRecord';
import { PolicyActor } from './actor';
import { evaluationTasks } from '../sim/seeds';
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

  it('plays its training rollouts and hands its evaluation the costs of talk and piling on when they are on', async () => {
    const step = async (c: Config) => {
      const trainer = new Trainer({ ...c, updates: 1 });
      const { metrics } = await trainer.step();
      const setup = trainer.evaluationSetup();
      trainer.dispose();
      return { metrics, setup };
    };
    const crowd: Config = { ...tiny, family: 'long-coupled', agents: 8, tmaxStart: 20, tmaxEnd: 20 };
    const off = await step({ ...crowd, interruptions: false, conflicts: false, broadcasts: false, merges: false });
    const on = await step({ ...crowd, interruptions: true, conflicts: true, broadcasts: true, merges: true });
    expect(off.metrics.interrupted).toBe(0);
    expect(off.metrics.conflicts).toBe(0);
    expect(off.setup.costs).toBeUndefined();
    expect(on.metrics.interrupted! + on.metrics.conflicts!).toBeGreaterThan(0); // the untrained swarm DMs and piles on
    expect(on.metrics.useful).toBeLessThan(off.metrics.useful);
    expect(on.setup.costs).toEqual({ interrupt: true, conflict: true, broadcast: true, merge: true });
  });

  it('grows the team of its training rollouts with teamStart, and evaluates the whole team', async () => {
    const grows: Config = { ...tiny, agents: 4, updates: 3, teamStart: 2, teamRamp: 2 };
    const trainer = new Trainer(grows);
    const playing: number[][] = [];
    while (!trainer.finished) {
      const { events } = await trainer.step();
      playing.push([...new Set(events.map((e) => e.agent))].sort());
    }
    // Updates 0, 1, 2 play 2, 3 and 4 agents (teamAt); the showcase rollout's events name only those.
    expect(playing.map((p) => Math.max(...p))).toEqual([1, 2, 3]);
    // An evaluation plays the whole team from the first minute, whatever the schedule.
    const run = await runEpisodes(new PolicyActor(trainer.policy, 1), evaluationTasks('coupled', 2), 4, 5, 14, 0, trainer.evaluationSetup().structure);
    expect(new Set(run.events.filter((e) => e.t === 0).map((e) => e.agent)).size).toBe(4);
    trainer.dispose();
    // A schedule that starts with the whole team is no schedule: the same numbers as none.
    const first = async (c: Config) => {
      const t = new Trainer({ ...c, updates: 1 });
      const { metrics } = await t.step();
      t.dispose();
      return [metrics.ret, metrics.loss, metrics.useful, metrics.messages];
    };
    expect(await first({ ...tiny, teamStart: 3 })).toEqual(await first(tiny));
  });

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

  it('anneals the learning rate to lr x lrEnd at the last RLCR update: at lrEnd 0 the last update moves no weight', async () => {
    const weightsAfter = async (lrEnd: number) => {
      const t = new Trainer({ ...tiny, updates: 3, lrEnd });
      const snaps: number[][] = [];
      while (!t.finished) {
        await t.step();
        snaps.push(Array.from(t.policy.vars.g1.dataSync()));
      }
      t.dispose();
      return snaps;
    };
    const annealed = await weightsAfter(0);
    const constant = await weightsAfter(1);
    expect(annealed[0]).toEqual(constant[0]); // the first RLCR update runs at lr either way
    expect(annealed[1]).not.toEqual(constant[1]); // the second at lr / 2
    expect(annealed[1]).not.toEqual(annealed[0]);
    expect(annealed[2]).toEqual(annealed[1]); // the last at 0: Adam's step is scaled to nothing
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

  it('runs the imitation prior first, then RLCR', async () => {
    const t = new Trainer({ ...tiny, prior: 2, updates: 2 });
    const phases: string[] = [];
    while (!t.finished) phases.push((await t.step()).metrics.phase);
    expect(phases).toEqual(['prior', 'prior', 'rlcr', 'rlcr']);
    t.dispose();
  });

  it('each ablation changes how an update learns and not how the swarm played', async () => {
    // One RLCR update from the same seed, without the entropy bonus, so the gradient is the advantages' alone.
    const first = async (over: Partial<Config>) => {
      const t = new Trainer({ ...tiny, updates: 1, entropy: 0, ...over });
      const before = Object.fromEntries(Object.entries(t.policy.vars).map(([k, v]) => [k, Array.from(v.dataSync())]));
      const {
        metrics: { collectMs: _c, learnMs: _l, ...metrics },
        events,
      } = await t.step();
      const changed = Object.keys(before).filter((k) => !Array.from(t.policy.vars[k].dataSync()).every((x, i) => x === before[k][i]));
      t.dispose();
      return { metrics, events, changed };
    };
    const base = await first({});
    const critic = await first({ critic: true, lambda: 0.95 });
    const rloo = await first({ advantage: 'rloo' });
    const individual = await first({ rewards: 'individual' });
    const latency = await first({ latencyPenalty: 0.5 });
    for (const v of [critic, rloo, individual, latency]) {
      // The ablations change the learning signal only: the update's rollouts are the baseline's.
      expect(v.metrics.ret).toBe(base.metrics.ret);
      expect(v.events).toEqual(base.events);
      expect(Number.isFinite(v.metrics.loss)).toBe(true);
      expect(v.metrics.gradNorm).toBeGreaterThan(0);
    }
    // Critic + GAE: the value head learns (its weights move) and the gradient is another; without it they stay put.
    expect(critic.changed).toEqual(expect.arrayContaining(['vo', 'vob']));
    expect(base.changed).not.toContain('vo');
    expect(base.changed).not.toContain('vob');
    const apart = (a: number, b: number) => Math.abs(a / b - 1);
    expect(apart(critic.metrics.gradNorm, base.metrics.gradNorm)).toBeGreaterThan(0.1);
    // RLOO is dr-grpo scaled by K / (K - 1) (every decision's advantage, so the whole gradient).
    expect(rloo.metrics.gradNorm / base.metrics.gradNorm).toBeCloseTo(tiny.groupSize / (tiny.groupSize - 1), 5);
    // Individual rewards: each agent is compared with itself in the other rollouts, another gradient...
    expect(apart(individual.metrics.gradNorm, base.metrics.gradNorm)).toBeGreaterThan(0.1);
    // ...but an agent alone earns the team's return, so with one agent the update is the collective one.
    const alone = await first({ agents: 1 });
    expect(await first({ agents: 1, rewards: 'individual' })).toEqual(alone);
    // The latency penalty scales with the minute a rollout ended; here none ends before the deadline,
    // so every rollout of a group pays the same and the group-relative advantages are the baseline's.
    expect(latency.metrics.gradNorm).toBeCloseTo(base.metrics.gradNorm, 8);
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
