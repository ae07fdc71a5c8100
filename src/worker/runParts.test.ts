import { describe, expect, it } from 'vitest';
import { fakeRun, fakeUpdate } from '../core/testing';
import type { RunFile } from '../core/runFormat';
import { RunAssembler, runParts, type RunPart } from './runParts';

/** A run with 9000 updates, 300 episodes of 200 events each, and weights holding NaN and -0. */
function bigRun(): RunFile {
  const run = fakeRun(20);
  const metrics = Array.from({ length: 9000 }, (_, u) => ({ ...fakeUpdate(u).metrics, update: u }));
  const one = run.episodes.items[0];
  const items = Array.from({ length: 300 }, (_, u) => ({
    ...one,
    update: u,
    events: Array.from({ length: 200 }, (_, i) => ({ ...one.events[i % one.events.length] })),
  }));
  const checkpoints = run.checkpoints.items.map((c, i) => ({
    ...c,
    weights: { ...c.weights, weights: { ...c.weights.weights, b1: { shape: [3], data: [NaN, -0, 1 / (i + 3)] } } },
  }));
  return { ...run, metrics, episodes: { ...run.episodes, items }, checkpoints: { ...run.checkpoints, items: checkpoints } };
}

/** The pieces as the page gets them: each copied on its own, its buffers moved. */
function sent(run: RunFile): RunPart[] {
  return runParts(run).map(({ part, transfer }) => structuredClone(part, { transfer }));
}

describe('runParts and RunAssembler', () => {
  it('send a run in pieces and put it together exactly, NaN and -0 in the weights included', () => {
    const run = bigRun();
    const parts = sent(run);
    const a = new RunAssembler();
    for (const p of parts) a.add(p);
    const back = a.run();
    expect(back).toEqual(run);
    expect(Object.is(back.checkpoints.items[0].weights.weights.b1.data[1], -0)).toBe(true);
    expect(Array.isArray(back.checkpoints.items[0].weights.weights.g1.data)).toBe(true);
  });

  it('keep every piece small: a head without the long lists, bounded batches of metrics and events, one checkpoint each', () => {
    const run = bigRun();
    const parts = runParts(run);
    const kinds = parts.map((p) => p.part.kind);
    expect(kinds[0]).toBe('head');
    const head = parts[0].part as Extract<RunPart, { kind: 'head' }>;
    expect([head.run.metrics.length, head.run.episodes.items.length, head.run.checkpoints.items.length]).toEqual([0, 0, 0]);
    expect(kinds.filter((k) => k === 'metrics')).toHaveLength(3);
    const batches = parts.flatMap((p) => (p.part.kind === 'episodes' ? [p.part.items] : []));
    expect(batches.length).toBeGreaterThan(1);
    for (const b of batches) expect(b.reduce((n, e) => n + e.events.length, 0)).toBeLessThanOrEqual(32_768);
    const checkpoints = parts.filter((p) => p.part.kind === 'checkpoint');
    expect(checkpoints).toHaveLength(run.checkpoints.items.length);
    for (const c of checkpoints) expect(c.transfer).toHaveLength(Object.keys(run.checkpoints.items[0].weights.weights).length);
  });

  it('leave the run they split as it was (its weights stay number lists)', () => {
    const run = bigRun();
    const before = structuredClone(run);
    sent(run);
    expect(run).toEqual(before);
  });

  it('an episode larger than a batch travels alone', () => {
    const run = fakeRun(3);
    const huge = { ...run.episodes.items[0], events: Array.from({ length: 40_000 }, () => ({ ...run.episodes.items[0].events[0] })) };
    const parts = runParts({ ...run, episodes: { ...run.episodes, items: [huge, ...run.episodes.items.slice(1)] } });
    const batches = parts.flatMap((p) => (p.part.kind === 'episodes' ? [p.part.items.length] : []));
    expect(batches).toEqual([1, run.episodes.items.length - 1]);
  });

  it('an assembler that never got the head says the run did not arrive whole', () => {
    const a = new RunAssembler();
    a.add({ kind: 'metrics', items: [] });
    expect(() => a.run()).toThrow('the run was not received whole');
  });
});
