import { describe, expect, it } from 'vitest';
import { scriptedOrganisation, singleChain } from './baselines';
import { runEpisodes } from './evaluate';
import { pairedTimes } from './pairedTimes';
import { evaluationTasks } from './seeds';

describe('minutes to the goal compared task by task', () => {
  it('pairs only the tasks both reached, and counts who was sooner', () => {
    const p = pairedTimes([60, 62, null, 70, 65, null], [61, 62, 64, 68, null, null]);
    expect(p.tasks).toBe(6);
    expect(p.both).toBe(3);
    // Differences -1, 0, +2: mean 1/3, sd sqrt(7/3).
    expect(p.meanDiff).toBeCloseTo(1 / 3, 12);
    expect(p.halfWidth).toBeCloseTo((1.96 * Math.sqrt(7 / 3)) / Math.sqrt(3), 12);
    expect([p.aSooner, p.bSooner, p.same]).toEqual([1, 1, 1]);
    expect([p.onlyA, p.onlyB]).toEqual([1, 1]);
  });

  it('gives no interval below two paired tasks, and refuses tasks that do not line up', () => {
    expect(pairedTimes([5], [7])).toMatchObject({ both: 1, meanDiff: -2, halfWidth: 0 });
    expect(pairedTimes([null], [null])).toMatchObject({ both: 0, meanDiff: 0, halfWidth: 0, onlyA: 0, onlyB: 0 });
    expect(() => pairedTimes([1, 2], [1])).toThrow(/same tasks/);
  });

  it('finds a team against itself level on every task', async () => {
    const tasks = evaluationTasks('long-coupled', 6);
    const a = await runEpisodes(scriptedOrganisation, tasks, 8, 5, 80);
    const b = await runEpisodes(scriptedOrganisation, tasks, 8, 5, 80);
    const p = pairedTimes(
      a.stats.map((s) => s.t90),
      b.stats.map((s) => s.t90),
    );
    expect(p.both).toBeGreaterThan(0);
    expect(p.same).toBe(p.both);
    expect(p.meanDiff).toBe(0);
    expect(p.halfWidth).toBe(0);
  });

  it('finds the scripted organisation sooner than the single chain wherever both get there', async () => {
    const tasks = evaluationTasks('coupled', 8);
    const org = await runEpisodes(scriptedOrganisation, tasks, 8, 3, 60);
    const chain = await runEpisodes(singleChain, tasks, 8, 3, 60);
    const p = pairedTimes(
      org.stats.map((s) => s.t90),
      chain.stats.map((s) => s.t90),
    );
    // The chain builds the sprint alone: where it gets there at all, it is many minutes behind.
    expect(p.both).toBeGreaterThan(4);
    expect(p.aSooner).toBe(p.both);
    expect(p.onlyB).toBe(0);
    expect(p.meanDiff + p.halfWidth).toBeLessThan(-10);
  });
});
