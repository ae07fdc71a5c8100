import { describe, expect, it } from 'vitest';
import { scriptedOrganisation } from './baselines';
import { runEpisodes } from './evaluate';
import { anytimeBand, inferenceScaling, raceHorizon, raceOrganisations, scaleOrganisations, summariseTimes, timeToThreshold, type UpdatePoint } from './race';
import { evaluationTasks } from './seeds';

const nonDecreasing = (xs: readonly number[]) => xs.every((x, i) => i === 0 || x >= xs[i - 1] - 1e-12);

describe('time to an acceptable result', () => {
  it('reads the first minute a hand-made anytime curve reaches the threshold', () => {
    const curve = [0, 0.2, 0.5, 0.89, 0.9, 1, 1];
    expect(timeToThreshold(curve, 0.9)).toBe(4);
    expect(timeToThreshold(curve, 0.95)).toBe(5);
    expect(timeToThreshold(curve, 0.5)).toBe(2);
    expect(timeToThreshold(curve, 0)).toBe(0);
    expect(timeToThreshold([0, 0.3, 0.6], 0.9)).toBeNull();
  });

  it('summarises per-task times with unreached tasks as the slowest', () => {
    const s = summariseTimes([3, null, 5, 7]);
    expect(s.median).toBe(6);
    expect(s.q25).toBe(4.5);
    expect(s.q75).toBeNull();
    expect(s.meanReached).toBe(5);
    expect(s.reached).toBe(0.75);
    expect(summariseTimes([2, null, null, null]).median).toBeNull();
  });

  it('gives monotone bands for monotone curves', () => {
    const band = anytimeBand([
      [0, 0.1, 0.4, 1],
      [0, 0.5, 0.5, 0.6],
      [0, 0, 0.9, 0.9],
    ]);
    [0, 0.2, 0.6, 2.5 / 3].forEach((v, t) => expect(band.mean[t]).toBeCloseTo(v, 12));
    expect(band.q25[2]).toBeCloseTo(0.45, 12);
    for (const k of ['mean', 'q25', 'q75'] as const) expect(nonDecreasing(band[k])).toBe(true);
  });

  it('agrees with the environment’s own minute of 90%', async () => {
    const { stats } = await runEpisodes(scriptedOrganisation, evaluationTasks('coupled', 6), 8, 3, 30);
    for (const s of stats) expect(timeToThreshold(s.curve, 0.9)).toBe(s.t90);
  });
});

describe('raceOrganisations', () => {
  it('races every organisation at the same compute, with monotone anytime curves', async () => {
    const rows = await raceOrganisations({ tasks: 'coupled', agents: 4, count: 6, horizon: 30, seed: 2 });
    expect(rows.map((r) => r.org)).toEqual(['single chain', 'best-of-N', 'scripted organisation']);
    const chain = rows[0];
    expect(chain.horizon).toBe(120);
    expect(chain.parallel).toBe(1);
    expect(rows[1].horizon).toBe(30);
    for (const r of rows) {
      expect(r.curve.mean).toHaveLength(r.horizon + 1);
      for (const k of ['mean', 'q25', 'q75'] as const) expect(nonDecreasing(r.curve[k]), `${r.org} ${k}`).toBe(true);
      expect(r.perTask).toHaveLength(6);
      if (r.time.median !== null) expect(r.compute).toBe(r.time.median * r.parallel);
    }
    // The organisation splits coupled work; the single chain cannot.
    expect(rows[2].time.median!).toBeLessThan(chain.time.median!);
  });

  it("runs three times the family's final deadline when given no horizon (three times 24 for a task list)", async () => {
    expect(raceHorizon(24)).toBe(72);
    const [family] = await raceOrganisations({ tasks: 'long-coupled', agents: 2, count: 1, only: ['best-of-N'] });
    expect(family.horizon).toBe(240);
    const [list] = await raceOrganisations({ tasks: evaluationTasks('long-coupled', 1), agents: 2, only: ['best-of-N'] });
    expect(list.horizon).toBe(72);
  });

  it('takes explicit task lists and a threshold', async () => {
    const tasks = [...evaluationTasks('search', 3), ...evaluationTasks('coupled', 3)];
    const loose = await raceOrganisations({ tasks, agents: 2, threshold: 0.5, only: ['best-of-N'] });
    const strict = await raceOrganisations({ tasks, agents: 2, threshold: 0.9, only: ['best-of-N'] });
    expect(loose).toHaveLength(1);
    expect(loose[0].time.median!).toBeLessThanOrEqual(strict[0].time.median ?? Infinity);
  });

  it('scales with the number of agents; the single chain does not speed up', async () => {
    const pts = await scaleOrganisations({ tasks: 'coupled', count: 4, agentCounts: [1, 4], horizon: 40 });
    expect(pts).toHaveLength(6);
    const at = (org: string, n: number) => pts.find((p) => p.org === org && p.agents === n)!.time.median;
    expect(at('single chain', 4)).toBe(at('single chain', 1) ?? at('single chain', 4));
    expect(at('scripted organisation', 4)!).toBeLessThan(at('single chain', 4)!);
  });
});

describe('inferenceScaling', () => {
  it('rolls per-update metrics into useful parallel work and messages', () => {
    const m: UpdatePoint[] = [0, 1, 2, 3].map((u) => ({ update: u, tmax: 10, ret: u / 10, useful: 10 * (u + 1), messages: u, handoffs: 2 * u }));
    const pts = inferenceScaling(m, 2);
    expect(pts.map((p) => p.useful)).toEqual([10, 15, 25, 35]);
    expect(pts.map((p) => p.parallelism)).toEqual([1, 1.5, 2.5, 3.5]);
    expect(pts[3].messages).toBe(2.5);
    expect(inferenceScaling(m, 2, 3).map((p) => p.update)).toEqual([0, 3]);
  });
});
