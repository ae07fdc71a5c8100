import { describe, expect, it } from 'vitest';
import { METRICS, type Metric } from '../sim/env';
import type { EpisodeStats } from '../sim/episodeStats';
import { updateMetrics } from './metrics';

/** A made-up rollout: return `ret`, ended at `tEnd`, with `dms` DMs and nothing else counted. */
function rollout(ret: number, tEnd: number, dms: number): EpisodeStats {
  const metrics = Object.fromEntries(METRICS.map((m) => [m, 0])) as Record<Metric, number>;
  metrics.dms = dms;
  return { ret, t90: null, tEnd, metrics, curve: [] };
}

describe("an update's metrics", () => {
  const at = { update: 3, phase: 'rlcr' as const, tmax: 10 };
  const learned = { loss: 0.5, entropy: 1.25, gradNorm: 2 };
  const ms = { collectMs: 7, learnMs: 9 };
  const stats = [rollout(0.25, 10, 2), rollout(0.75, 5, 0)];

  it('gathers the rollouts, the learn step and the timings', () => {
    const m = updateMetrics(at, stats, 2, learned, ms, {});
    expect(m).toMatchObject({ update: 3, phase: 'rlcr', tmax: 10, ret: 0.5, loss: 0.5, entropy: 1.25, gradNorm: 2, collectMs: 7, learnMs: 9 });
    expect(m.retStd).toBeCloseTo(Math.SQRT1_2 * 0.5, 12); // sample sd of 0.25 and 0.75
    expect(m.messages).toBe(1); // 2 DMs over 2 rollouts
    expect(m.messageRate).toBeCloseTo(2 / 30, 12); // over (10 + 5) minutes x 2 agents
  });

  it('counts the costs of talk and of piling on: wasted messages, interruptions, conflicts, needed deliveries', () => {
    const a = rollout(0.5, 10, 4);
    Object.assign(a.metrics, { posts: 2, reads: 4, handoffs: 2, wastedMessages: 3, interrupted: 2, conflicts: 1, duplicate: 5, idle: 6 });
    const b = rollout(0.5, 10, 0);
    Object.assign(b.metrics, { wastedMessages: 0, interrupted: 0, conflicts: 3, idle: 2 });
    const m = updateMetrics(at, [a, b], 2, learned, ms, {});
    expect(m.messages).toBe(3); // (4 DMs + 2 posts) / 2 rollouts
    expect(m.wastedMessages).toBe(1.5);
    expect(m.interrupted).toBe(1);
    expect(m.conflicts).toBe(2);
    expect(m.neededShare).toBe(0.25); // 2 handoffs of 4 DMs + 4 reads
    expect(m.duplicate).toBe(2.5);
    expect(m.idle).toBe(4);
  });

  it("holds a structure's numbers under one field, and none under the flat structure", () => {
    expect(updateMetrics(at, stats, 2, learned, ms, {})).not.toHaveProperty('structure');
    const structure = { islandBest: 0.75, islandMean: 0.5 };
    const m = updateMetrics(at, stats, 2, learned, ms, structure);
    expect(m.structure).toEqual({ islandBest: 0.75, islandMean: 0.5 });
    structure.islandBest = 0;
    expect(m.structure?.islandBest).toBe(0.75); // a copy
  });
});
