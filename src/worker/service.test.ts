import { describe, expect, it } from 'vitest';
import { referenceReturns } from '../rl/compare';
import { costsOf, defaultConfig, type Config } from '../rl/config';
import type { PolicyJSON } from '../rl/policy';
import type { RunState, TalkReport, UpdateMessage } from './protocol';
import { TALK_DEFAULTS, TrainerService, talkInterval, truncateRun, type TalkOptions } from './service';
import { decodeRunFile } from '../core/runFile';
import { localShards, ShardedTrainer } from './shardedTrainer';

const tiny: Config = { ...defaultConfig(), agents: 2, tasksPerUpdate: 1, groupSize: 2, tmaxStart: 6, tmaxEnd: 6, updates: 3, hidden: 16, scorer: 8 };

const fast = { budgetMs: 50, maxRuns: 2 };

async function subscribed(): Promise<{ svc: TrainerService; updates: UpdateMessage[]; states: RunState[] }> {
  const svc = new TrainerService(fast);
  const updates: UpdateMessage[] = [];
  const states: RunState[] = [];
  await svc.subscribe(
    (u) => void updates.push(u),
    (s) => void states.push(s),
  );
  return { svc, updates, states };
}

/** Lets queued subscriber calls run. */
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('TrainerService', () => {
  it('starts on a forced backend, steps, and streams one message per update', async () => {
    const { svc, updates, states } = await subscribed();
    const report = await svc.init(tiny, 'cpu');
    expect(report.backend).toBe('cpu');
    expect(report.reason).toBe('CPU: chosen by hand');
    expect(report.timings).toEqual({});
    await svc.step();
    await svc.step();
    await flush();
    expect(updates.map((u) => u.metrics.update)).toEqual([0, 1]);
    expect(updates[0].total).toBe(3);
    expect(updates[0].modules.length).toBeGreaterThan(0);
    // the reference lines come from the worker, so the page does no simulation of its own
    expect(updates[0].references).toEqual(await referenceReturns(tiny.family, tiny.agents, updates[0].metrics.tmax, 16, costsOf(tiny)));
    expect(updates[0].events.length).toBeGreaterThan(0);
    expect(states.at(-1)).toBe('paused');
    await svc.start();
    await flush();
    expect(updates).toHaveLength(3);
    expect(states.at(-1)).toBe('finished');
  });

  it("plays the reference lines under the run's costs", async () => {
    const booked: Config = { ...tiny, tmaxStart: 40, tmaxEnd: 40, effort: 0.1, updates: 1 };
    const { svc, updates } = await subscribed();
    await svc.init(booked, 'cpu');
    await svc.step();
    await flush();
    const without = await referenceReturns(booked.family, booked.agents, 40);
    const under = await referenceReturns(booked.family, booked.agents, 40, 16, costsOf(booked));
    expect(under.scripted).toBeLessThan(without.scripted); // the booked effort binds the organisation here
    expect(updates[0].references).toEqual(under);
  });

  it('applies schedule changes between updates, pauses a running loop, and rebuilds on a structural change', async () => {
    const { svc, updates, states } = await subscribed();
    await svc.init(tiny, 'cpu');
    expect(await svc.setConfig({ ...tiny, updates: 1000, tmaxEnd: 30 })).toEqual({ rebuilt: false, update: 0 });
    const running = svc.start();
    while (updates.length < 3) await flush();
    await svc.pause();
    await running;
    await flush();
    const n = updates.length;
    expect(states.at(-1)).toBe('paused');
    await new Promise((r) => setTimeout(r, 50));
    expect(updates).toHaveLength(n);
    expect(updates.at(-1)!.total).toBe(1000);
    // The change takes effect at the next update, the first after those sent so far.
    expect(await svc.setConfig({ ...tiny, updates: 1000, tmaxStart: 20, tmaxEnd: 20 })).toEqual({ rebuilt: false, update: n });
    await svc.step();
    await flush();
    expect(updates.at(-1)!.metrics.tmax).toBe(20);
    expect(updates.at(-1)!.metrics.update).toBe(n);
    expect(await svc.setConfig({ ...tiny, agents: 3 })).toEqual({ rebuilt: true, update: 0 });
    expect(states.at(-1)).toBe('idle');
    await svc.step();
    await flush();
    expect(updates.at(-1)!.metrics.update).toBe(0);
    await svc.reset();
    expect(states.at(-1)).toBe('idle');
  });

  it('hands out the weights with their update count, and takes weights in to continue from them', async () => {
    const { svc } = await subscribed();
    await svc.init(tiny, 'cpu');
    await svc.step();
    const a = await svc.weights();
    expect(a.updates).toBe(1);
    await svc.reset(tiny);
    const fresh = await svc.weights();
    expect(fresh.updates).toBe(0);
    expect(fresh.weights.weights).not.toEqual(a.weights.weights);
    await svc.loadWeights(a.weights);
    expect((await svc.weights()).weights.weights).toEqual(a.weights.weights);
    await expect(svc.loadWeights({ ...a.weights, shape: { ...a.weights.shape, hidden: 32 } })).rejects.toThrow(/hidden 32/);
  });

  it('resets onto given weights in one step: a step sent right after trains from them, not from fresh ones', async () => {
    const { svc } = await subscribed();
    await svc.init(tiny, 'cpu');
    await svc.step();
    const a = await svc.weights();
    await svc.reset(tiny);
    // Sent without waiting, as a click right after "Train on from this swarm" would be.
    const continued = svc.resetWith({ ...tiny, seed: 9 }, a.weights);
    const stepped = svc.step();
    await Promise.all([continued, stepped]);
    const after = await svc.weights();
    expect(after.updates).toBe(1);
    // One update from `a`, not from the fresh seed-9 weights: the same as stepping from `a` by hand.
    await svc.reset({ ...tiny, seed: 9 });
    await svc.loadWeights(a.weights);
    await svc.step();
    expect((await svc.weights()).weights.weights).toEqual(after.weights.weights);
  });

  it('records the run it trains: every update, episodes, a final checkpoint, a fresh recording per reset', async () => {
    const { svc } = await subscribed();
    await svc.init(tiny, 'cpu');
    expect(await svc.recording()).toBeNull();
    await svc.step();
    await svc.step();
    const rec = await svc.recording('class demo');
    expect(rec).not.toBeNull();
    const decoded = decodeRunFile(rec!.bytes);
    if (!decoded.ok) throw new Error(decoded.error);
    expect(decoded.run.name).toBe('class demo');
    expect(decoded.run.metrics.map((m) => m.update)).toEqual([0, 1]);
    expect(decoded.run.episodes.items.map((e) => e.update)).toEqual([0, 1]);
    expect(decoded.run.checkpoints.items.at(-1)?.updates).toBe(2);
    expect(rec!.facts).toMatchObject({ name: 'class demo', updates: 2, bytes: rec!.bytes.length });
    await svc.setRecording(false);
    await svc.step();
    expect(await svc.recording()).toBeNull();
    await svc.setRecording(true);
    await svc.reset(tiny);
    await svc.step();
    const again = decodeRunFile((await svc.recording())!.bytes);
    expect(again.ok && again.run.metrics.map((m) => m.update)).toEqual([0]);
  });

  it('sends and records how a structure shaped the showcase rollout', async () => {
    const { svc, updates } = await subscribed();
    await svc.init({ ...tiny, agents: 4, structure: 'islands', islands: 2 }, 'cpu');
    await svc.step();
    await flush();
    expect(updates[0].structure?.kind).toBe('islands');
    expect(updates[0].structure?.islandOf).toHaveLength(4);
    const r = decodeRunFile((await svc.recording())!.bytes);
    expect(r.ok && r.run.episodes.items[0].structure?.islandOf).toEqual(updates[0].structure?.islandOf);
    await svc.reset({ ...tiny, agents: 3, structure: 'ceo', budget: 30 });
    await svc.step();
    await flush();
    expect(updates[1].structure?.kind).toBe('ceo');
    expect(updates[1].structure?.headCount?.length).toBeGreaterThan(0);
  });

  it('races the organisations, the swarm as trained so far included, on the current family', async () => {
    const { svc } = await subscribed();
    await svc.init({ ...tiny, agents: 3 }, 'cpu');
    await svc.step();
    const r = await svc.race({ threshold: 0.9, horizon: 24, tasks: 3, agentCounts: [1, 2] });
    expect(r.race.map((x) => x.org)).toEqual(['single chain', 'best-of-N', 'scripted organisation', 'trained swarm']);
    expect(r.race[0].horizon).toBe(3 * 24);
    expect(r.updates).toBe(1);
    expect(r.scaling.filter((p) => p.org === 'trained swarm').map((p) => p.agents)).toEqual([1, 2]);
    for (const x of r.race) expect(x.curve.mean.every((v, i, a) => i === 0 || v >= a[i - 1] - 1e-12)).toBe(true);
  });

  it('resumes a recorded run in a fresh service: same weights, update count and recording, training on from there', async () => {
    const a = await subscribed();
    await a.svc.init({ ...tiny, updates: 6 }, 'cpu');
    await a.svc.step();
    await a.svc.setConfig({ ...tiny, updates: 6, lr: 0.002 });
    await a.svc.step();
    await a.svc.step();
    const saved = (await a.svc.recording('before the crash'))!;
    const weights = (await a.svc.weights()).weights;
    const b = await subscribed();
    await b.svc.init(tiny, 'cpu');
    const r = await b.svc.resume(saved.bytes);
    expect(r).toMatchObject({ updates: 3, name: 'before the crash' });
    expect(r.config.lr).toBe(0.002);
    expect(b.states.at(-1)).toBe('paused');
    const got = await b.svc.weights();
    expect(got.updates).toBe(3);
    expect(got.weights.shape).toEqual(weights.shape);
    const cp = decodeRunFile(saved.bytes);
    if (!cp.ok) throw new Error(cp.error);
    const f32 = (w: PolicyJSON) => Object.fromEntries(Object.entries(w.weights).map(([k, v]) => [k, v.data.map(Math.fround)]));
    expect(f32(got.weights)).toEqual(f32(cp.run.checkpoints.items.at(-1)!.weights));
    await b.svc.step();
    await flush();
    expect(b.updates.map((u) => u.metrics.update)).toEqual([3]);
    const run = decodeRunFile((await b.svc.recording())!.bytes);
    if (!run.ok) throw new Error(run.error);
    expect(run.run.name).toBe('before the crash');
    expect(run.run.metrics.map((m) => m.update)).toEqual([0, 1, 2, 3]);
    expect(run.run.configChanges.map((c) => c.update)).toEqual([1]);
  });

  it("trains in shards where its plan says so: the shards' numbers, a numeric fault reported, a resumed run in shards too", async () => {
    const run: Config = { ...tiny, tasksPerUpdate: 2, updates: 5 };
    const sharded = async () => {
      const svc = new TrainerService(fast, {}, { plan: (c) => (c.tasksPerUpdate >= 2 ? 2 : 1) });
      const updates: UpdateMessage[] = [];
      await svc.subscribe(
        (u) => void updates.push(u),
        () => undefined,
      );
      await svc.init(run, 'cpu');
      return { svc, updates };
    };
    const ref = await ShardedTrainer.start(run, localShards(2));
    try {
      const a = await sharded();
      await a.svc.step();
      await a.svc.step();
      const want = [await ref.step(), await ref.step()];
      await flush();
      expect(a.updates.map((u) => u.metrics.loss)).toEqual(want.map((r) => r.metrics.loss));
      expect((await a.svc.weights()).weights).toEqual(ref.policy.toJSON());
      // The fault stops every shard alike; the page gets shard 0's report, and the weights are the last good ones.
      a.svc.poisonNextLoss();
      expect(await a.svc.step()).toMatchObject({ kind: 'numeric', update: 2 });
      expect((await a.svc.weights()).weights).toEqual(ref.policy.toJSON());
      const saved = (await a.svc.recording())!;
      const b = await sharded();
      expect(await b.svc.resume(saved.bytes)).toMatchObject({ updates: 2 });
      await b.svc.step();
      const next = await ref.step();
      await flush();
      expect(b.updates.map((u) => [u.metrics.update, u.metrics.loss])).toEqual([[2, next.metrics.loss]]);
      // A run the plan keeps whole (one task group) trains alone, as before.
      await b.svc.reset({ ...run, tasksPerUpdate: 1 });
      await b.svc.step();
    } finally {
      await ref.dispose();
    }
  });

  it('frees its pool of shards when the backend it started trains alone', async () => {
    let closed = 0;
    const svc = new TrainerService(fast, {}, { close: () => void closed++ });
    const report = await svc.init({ ...tiny, tasksPerUpdate: 2 }, 'cpu');
    expect(closed).toBe(1);
    expect(report.shards).toBeUndefined();
  });

  it('refuses to resume a file it cannot read, keeping its own trainer', async () => {
    const { svc } = await subscribed();
    await svc.init(tiny, 'cpu');
    await svc.step();
    await expect(svc.resume(new Uint8Array([1, 2, 3]))).rejects.toThrow(/cannot be read/);
    expect((await svc.weights()).updates).toBe(1);
  });

  it('cuts a run back to a checkpoint older than its last update', async () => {
    const { svc } = await subscribed();
    await svc.init(tiny, 'cpu');
    await svc.step();
    await svc.step();
    const run = decodeRunFile((await svc.recording())!.bytes);
    if (!run.ok) throw new Error(run.error);
    const cut = truncateRun(run.run, 1);
    expect(cut.metrics.map((m) => m.update)).toEqual([0]);
    expect(cut.episodes.items.map((e) => e.update)).toEqual([0]);
    expect(truncateRun(run.run, 5)).toBe(run.run);
  });

  it('races a recorded swarm instead of the one being trained, on its own family and team size', async () => {
    const { svc } = await subscribed();
    await svc.init({ ...tiny, agents: 3 }, 'cpu');
    const weights = (await svc.weights()).weights;
    const r = await svc.race(
      { threshold: 0.9, horizon: 12, tasks: 2, agentCounts: [1] },
      { name: 'replayed', config: { ...tiny, family: 'parallel', agents: 2 }, updates: 40, weights },
    );
    expect(r).toMatchObject({ family: 'parallel', agents: 2, updates: 40, swarm: 'replayed' });
    expect(r.race.map((x) => x.org)).toContain('trained swarm');
    expect((await svc.race({ threshold: 0.9, horizon: 12, tasks: 2, agentCounts: [1] })).swarm).toBeUndefined();
  });

  it('a lost device fails the next update, and only that one', async () => {
    const { svc } = await subscribed();
    await svc.init(tiny, 'cpu');
    svc.loseDevice();
    await expect(svc.step()).rejects.toThrow(/device was lost/);
    await svc.step();
    expect((await svc.weights()).updates).toBe(1);
  });

  it('a poisoned loss stops the next update through the numeric guard, weights and settings kept; the one after trains', async () => {
    const { svc } = await subscribed();
    await svc.init(tiny, 'cpu');
    await svc.step();
    const before = await svc.weights();
    svc.poisonNextLoss();
    const fault = await svc.step();
    expect(fault).toMatchObject({ kind: 'numeric', site: 'loss', update: 1, lr: tiny.lr, gradClip: tiny.gradClip });
    expect(fault?.message).toMatch(/^Training stopped at update 1: the loss became NaN or infinite/);
    expect(await svc.weights()).toEqual(before);
    await svc.step();
    const after = await svc.weights();
    expect(after.updates).toBe(2);
    expect(Object.values(after.weights.weights).every((w) => w.data.every(Number.isFinite))).toBe(true);
  });

  it('rejects commands before init, and reports the error of a failing update to the caller', async () => {
    const { svc } = await subscribed();
    await expect(svc.step()).rejects.toThrow(/init first/);
    await expect(svc.start()).rejects.toThrow(/init first/);
    await svc.init(tiny, 'cpu');
    await svc.setConfig({ ...tiny, family: 'nonsense' as Config['family'] });
    await expect(svc.step()).rejects.toThrow();
    await expect(svc.start()).rejects.toThrow();
    await svc.reset(tiny);
    await svc.step();
  });
});

describe('what talk is worth, measured by the service', () => {
  /** A service that measures talk on 2 tasks every `every` updates, whatever the measurement costs. */
  async function listening(talk: Partial<TalkOptions> = {}) {
    const svc = new TrainerService(fast, { tasks: 2, every: 3, share: Infinity, ...talk });
    const updates: UpdateMessage[] = [];
    const talks: TalkReport[] = [];
    await svc.subscribe(
      (u) => void updates.push(u),
      () => undefined,
      (t) => void talks.push(t),
    );
    return { svc, updates, talks };
  }

  /** Waits for every queued operation (a talk measurement included), then for the deliveries. */
  const settle = async (svc: TrainerService) => {
    await svc.weights();
    await flush();
  };

  it('sizes the interval to the cost: every N updates unless one measurement is dear', () => {
    expect(talkInterval(TALK_DEFAULTS, 300, 800)).toBe(10);
    expect(talkInterval(TALK_DEFAULTS, 500, 100)).toBe(100);
    expect(talkInterval(TALK_DEFAULTS, 0, 100)).toBe(10);
    expect(talkInterval(TALK_DEFAULTS, 500, 0)).toBe(10);
  });

  it('measures the fresh swarm, after a step, every N updates while running and at the end, and records it', async () => {
    const { svc, talks } = await listening();
    await svc.init({ ...tiny, updates: 10 }, 'cpu');
    await settle(svc);
    expect(talks.map((t) => t.updates)).toEqual([0]);
    await svc.step();
    await settle(svc);
    expect(talks.map((t) => t.updates)).toEqual([0, 1]);
    await svc.start();
    await settle(svc);
    expect(talks.map((t) => t.updates)).toEqual([0, 1, 4, 7, 10]);
    for (const t of talks) {
      expect(t).toMatchObject({ tmax: tiny.tmaxEnd, tasks: 2 });
      for (const v of [t.ret, t.muted, t.neededShare]) expect(v >= 0 && v <= 1).toBe(true);
      expect(t.messages).toBeGreaterThan(0); // the barely trained swarm talks
      expect(t.ms).toBeGreaterThan(0);
    }
    const run = decodeRunFile((await svc.recording())!.bytes);
    if (!run.ok) throw new Error(run.error);
    expect(run.run.talk).toEqual(talks.map(({ ms: _, ...record }) => record));
  });

  it('brings the figures up to date on a pause, measures loaded weights again, and starts over on a reset', async () => {
    const { svc, updates, talks } = await listening({ every: 1000 });
    await svc.init({ ...tiny, updates: 1000 }, 'cpu');
    const running = svc.start();
    while (updates.length < 2) await flush();
    await svc.pause();
    await running;
    await settle(svc);
    expect(talks.map((t) => t.updates)).toEqual([0, updates.length]);
    const { weights } = await svc.weights();
    await svc.reset();
    await settle(svc);
    expect(talks.at(-1)?.updates).toBe(0);
    const n = talks.length;
    await svc.loadWeights(weights);
    await settle(svc);
    expect(talks).toHaveLength(n + 1);
    expect(talks.at(-1)?.updates).toBe(0);
  });

  it('measures nothing without a listener, and does not change the training it measures', async () => {
    const quiet = await subscribed();
    await quiet.svc.init(tiny, 'cpu');
    await quiet.svc.start();
    const run = decodeRunFile((await quiet.svc.recording())!.bytes);
    expect(run.ok && run.run.talk).toBeUndefined();
    const { svc, updates, talks } = await listening({ every: 1 });
    await svc.init(tiny, 'cpu');
    await svc.start();
    await settle(svc);
    expect(talks.map((t) => t.updates)).toEqual([0, 1, 2, 3]);
    const numbers = (us: UpdateMessage[]) => us.map((u) => [u.metrics.ret, u.metrics.entropy, u.metrics.loss]);
    expect(numbers(updates)).toEqual(numbers(quiet.updates));
  });
});
