import { describe, expect, it } from 'vitest';
import { RunRecorder, Thinned, episodeNear, episodeTicks, lastCheckpoint } from './recorder';
import { compactWeights, decodeRunFile, encodeRunFile, validateRun } from './runFile';
import { fakeRun, fakeUpdate, fakeWeights, testConfig } from './testing';

/** What the thinning rule must keep after positions 0..n-1: multiples of the smallest stride that fits, plus the last. */
function expectedKept(n: number, every: number, maxKept: number): { stride: number; kept: number[] } {
  let stride = every;
  const multiples = (s: number) => Array.from({ length: n }, (_, p) => p).filter((p) => p % s === 0);
  while (multiples(stride).length > maxKept) stride *= 2;
  const kept = multiples(stride);
  if (n > 0 && kept[kept.length - 1] !== n - 1) kept.push(n - 1);
  return { stride, kept };
}

describe('Thinned', () => {
  it('keeps everything while there is room, then every k-th with k doubling, always the last', () => {
    for (const maxKept of [1, 3, 4, 8]) {
      const t = new Thinned<number>(1, maxKept);
      for (let p = 0; p < 100; p++) {
        t.add(p, p);
        const want = expectedKept(p + 1, 1, maxKept);
        expect(t.items()).toEqual(want.kept);
        expect(t.stride).toBe(want.stride);
        expect(t.size).toBeLessThanOrEqual(maxKept + 1);
      }
    }
  });

  it('starts at `every` and replaces an item added twice at one position', () => {
    const t = new Thinned<string>(5, 2);
    expect(t.wants(5) && t.wants(10) && !t.wants(7)).toBe(true);
    t.add(5, 'a');
    t.add(7, 'b');
    t.add(7, 'b2');
    expect(t.items()).toEqual(['a', 'b2']);
    t.add(10, 'c');
    t.add(15, 'd');
    expect(t.rule).toEqual({ every: 5, maxKept: 2, stride: 10 });
    expect(t.items()).toEqual(['c', 'd']);
    expect(() => t.add(3, 'late')).toThrow(/before the newest item/);
  });
});

describe('RunRecorder', () => {
  it('records every metric, thins episodes by the rule and keeps the last one', () => {
    const rec = new RunRecorder(testConfig({ updates: 50 }), { maxEpisodes: 8 });
    for (let u = 0; u < 50; u++) rec.push(fakeUpdate(u, 50));
    const run = rec.snapshot();
    expect(run.metrics.map((m) => m.update)).toEqual(Array.from({ length: 50 }, (_, u) => u));
    const want = expectedKept(50, 1, 8);
    expect(run.episodes.rule).toEqual({ every: 1, maxKept: 8, stride: want.stride });
    expect(run.episodes.items.map((e) => e.update)).toEqual(want.kept);
    expect(run.episodes.items.at(-1)?.update).toBe(49);
    expect(validateRun(run).ok).toBe(true);
  });

  it('asks for checkpoints every M updates, doubling M past the cap, and keeps the final one', () => {
    const run = fakeRun(23, { checkpointEvery: 2, maxCheckpoints: 4 });
    expect(run.checkpoints.rule).toEqual({ every: 2, maxKept: 4, stride: 8 });
    expect(run.checkpoints.items.map((c) => c.updates)).toEqual([8, 16, 23]);
    expect(lastCheckpoint(run)?.weights.weights.g1.data.map(Math.fround)).toEqual(fakeWeights(23).weights.g1.data.map(Math.fround));
    const rec = new RunRecorder(testConfig(), { checkpointEvery: 10 });
    expect([0, 5, 10, 20].map((u) => rec.wantsCheckpoint(u))).toEqual([false, false, true, true]);
  });

  it('stores weights in their shortest float32 form without changing any weight', () => {
    const w = fakeWeights(1 / 3);
    const rec = new RunRecorder(testConfig());
    rec.addCheckpoint(1, w);
    const stored = rec.snapshot().checkpoints.items[0].weights;
    for (const k of Object.keys(w.weights)) expect(stored.weights[k].data.map(Math.fround)).toEqual(w.weights[k].data.map(Math.fround));
    expect(JSON.stringify(stored).length).toBeLessThan(JSON.stringify(w).length);
  });

  it('lowers the checkpoint cap to fit the byte budget', () => {
    const rec = new RunRecorder(testConfig(), { checkpointEvery: 1, maxCheckpoints: 16, checkpointBudgetBytes: 1000 });
    for (let u = 1; u <= 20; u++) rec.addCheckpoint(u, fakeWeights(u));
    const { rule, items } = rec.snapshot().checkpoints;
    const bytes = JSON.stringify(compactWeights(fakeWeights(1))).length;
    expect(rule.maxKept).toBe(Math.floor(1000 / bytes) - 1);
    expect(items.length).toBeLessThanOrEqual(rule.maxKept + 1);
  });

  it('holds bounded memory over a long run', () => {
    const rec = new RunRecorder(testConfig({ updates: 5000 }), { maxEpisodes: 16, checkpointEvery: 10, maxCheckpoints: 4 });
    for (let u = 0; u < 5000; u++) {
      rec.push(fakeUpdate(u, 5000));
      if (rec.wantsCheckpoint(u + 1)) rec.addCheckpoint(u + 1, fakeWeights());
    }
    const run = rec.snapshot();
    expect(run.episodes.items.length).toBeLessThanOrEqual(17);
    expect(run.checkpoints.items.length).toBeLessThanOrEqual(5);
    expect(run.metrics).toHaveLength(5000);
    expect(decodeRunFile(encodeRunFile(run))).toEqual({ ok: true, run });
  });

  it('records settings changed mid-run, once per update', () => {
    const c = testConfig();
    const rec = new RunRecorder(c);
    rec.push(fakeUpdate(0));
    rec.setConfig({ ...c, tmaxEnd: 30 });
    rec.setConfig({ ...c, tmaxEnd: 40 });
    rec.push(fakeUpdate(1));
    rec.setConfig({ ...c, tmaxEnd: 40 });
    rec.push(fakeUpdate(2));
    rec.setConfig({ ...c, lr: 0.01, tmaxEnd: 40 });
    rec.setConfig({ ...c, tmaxEnd: 40 });
    const run = rec.snapshot();
    expect(run.configChanges).toEqual([{ update: 1, config: { ...c, tmaxEnd: 40 } }]);
    expect(run.config).toEqual(c);
    expect(validateRun(run).ok).toBe(true);
  });

  it('refuses a gap or a restart in the update stream but accepts a continued run', () => {
    const rec = new RunRecorder(testConfig());
    rec.push(fakeUpdate(0));
    expect(() => rec.push(fakeUpdate(2))).toThrow('update 2 arrived after update 0: a new run needs a new recorder');
    expect(() => rec.push(fakeUpdate(0))).toThrow(/arrived after update 0/);
    const continued = new RunRecorder(testConfig());
    continued.push(fakeUpdate(30));
    continued.push(fakeUpdate(31));
    expect(validateRun(continued.snapshot()).ok).toBe(true);
    expect(continued.nextUpdate).toBe(32);
  });

  it('records talk measurements in order, replacing one at the same count, and leaves the field out without any', () => {
    const talk = (updates: number, ret = 0.5) => ({ updates, tmax: 6, tasks: 8, ret, muted: 0.4, neededShare: 0.25, messages: 3 });
    expect(fakeRun(3).talk).toBeUndefined();
    expect('talk' in fakeRun(3)).toBe(false);
    const rec = new RunRecorder(testConfig());
    rec.addTalk(talk(0, 0.1));
    rec.addTalk(talk(0));
    for (let u = 0; u < 4; u++) rec.push(fakeUpdate(u));
    rec.addTalk(talk(2));
    rec.addTalk(talk(1));
    rec.addTalk(talk(4, Number.NaN));
    rec.addTalk(talk(9));
    const run = rec.snapshot();
    expect(run.talk?.map((t) => t.updates)).toEqual([0, 2, 4]);
    expect(run.talk?.[0].ret).toBe(0.5);
    const back = decodeRunFile(encodeRunFile(run));
    if (!back.ok) throw new Error(back.error);
    expect(back.run.talk?.[2].ret).toBeNaN();
    expect(back.run.talk?.[1]).toEqual(talk(2));
  });

  it('names the run from the config by default and cleans a given name', () => {
    expect(new RunRecorder(testConfig(), { created: new Date(2026, 0, 2, 3, 4) }).snapshot().name).toBe('coupled, 2 agents · 2 Jan 03:04');
    expect(new RunRecorder(testConfig(), { name: '  demo  ' }).snapshot().name).toBe('demo');
  });
});

describe('replay helpers', () => {
  const run = fakeRun(40, { maxEpisodes: 4 });

  it('finds the nearest recorded episode (the earlier on a tie)', () => {
    expect(run.episodes.items.map((e) => e.update)).toEqual([0, 16, 32, 39]);
    expect(episodeNear(run, -5)?.update).toBe(0);
    expect(episodeNear(run, 7)?.update).toBe(0);
    expect(episodeNear(run, 8)?.update).toBe(0);
    expect(episodeNear(run, 9)?.update).toBe(16);
    expect(episodeNear(run, 35)?.update).toBe(32);
    expect(episodeNear(run, 36)?.update).toBe(39);
    expect(episodeNear(run, 1000)?.update).toBe(39);
    expect(episodeNear({ episodes: { rule: run.episodes.rule, items: [] } }, 3)).toBeUndefined();
  });

  it('measures an episode in ticks: up to the last completion when all modules finished, else the deadline', () => {
    const done = run.episodes.items[0];
    expect(done.tmax).toBe(4);
    expect(episodeTicks(done)).toBe(3);
    const unfinished = run.episodes.items[3];
    expect(unfinished.tmax).toBe(4 + (39 % 3));
    expect(episodeTicks(unfinished)).toBe(unfinished.tmax);
  });
});

describe('RunRecorder.resume', () => {
  /** Records updates `from` to `to` (exclusive) with the usual checkpoints; `at` adds one at the end, as a save does. */
  function record(rec: RunRecorder, from: number, to: number): void {
    for (let u = from; u < to; u++) {
      rec.push(fakeUpdate(u, 400));
      if (rec.wantsCheckpoint(u + 1)) rec.addCheckpoint(u + 1, fakeWeights(u + 1));
    }
  }

  it('carries on a saved recording exactly as if it had never stopped (thinning, checkpoints, changes, talk)', () => {
    const options = { name: 'long run', created: new Date(Date.UTC(2024, 0, 1)), maxEpisodes: 16, maxCheckpoints: 4 };
    const config = testConfig({ updates: 400 });
    const straight = new RunRecorder(config, options);
    const first = new RunRecorder(config, options);
    for (const r of [straight, first]) {
      record(r, 0, 150);
      r.setConfig({ ...config, lr: 0.002 });
      r.addTalk({ updates: 150, tmax: 24, tasks: 4, ret: 0.5, muted: 0.4, neededShare: 0.2, messages: 3 });
    }
    // The save at update 150 takes a checkpoint of the weights then; the straight run takes the same.
    first.addCheckpoint(150, fakeWeights(150));
    straight.addCheckpoint(150, fakeWeights(150));
    const saved = decodeRunFile(encodeRunFile(first.snapshot()));
    if (!saved.ok) throw new Error(saved.error);
    const resumed = RunRecorder.resume(saved.run);
    expect(resumed.nextUpdate).toBe(150);
    expect(resumed.currentConfig.lr).toBe(0.002);
    record(resumed, 150, 400);
    record(straight, 150, 400);
    const a = resumed.snapshot();
    const b = straight.snapshot();
    expect(a.episodes.rule.stride).toBeGreaterThan(1);
    expect(a).toEqual(b);
  });
});
