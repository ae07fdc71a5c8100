import { describe, expect, it } from 'vitest';
import type { ActionSource } from './actionSource';
import { scriptedOrganisation, singleChain } from './baselines';
import { runEpisodes } from './evaluate';
import { pairedTimes } from './pairedTimes';
import { evaluationTasks } from './seeds';
import type { Family } from './task';

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

  /** Two teams of 8 played on the same `count` evaluation tasks of `family` at deadline `tmax`, compared. */
  const played = async (a: ActionSource, b: ActionSource, family: Family, count: number, seed: number, tmax: number) => {
    const tasks = evaluationTasks(family, count);
    const times = async (src: ActionSource) => (await runEpisodes(src, tasks, 8, seed, tmax)).stats.map((s) => s.t90);
    return pairedTimes(await times(a), await times(b));
  };

  it('finds a team against itself level on every task', async () => {
    const p = await played(scriptedOrganisation, scriptedOrganisation, 'long-coupled', 6, 5, 80);
    expect(p.both).toBeGreaterThan(0);
    expect(p.same).toBe(p.both);
    expect(p.meanDiff).toBe(0);
    expect(p.halfWidth).toBe(0);
  });

  it('finds the scripted organisation sooner than the single chain wherever both get there', async () => {
    const p = await played(scriptedOrganisation, singleChain, 'coupled', 8, 3, 60);
    // The chain builds the sprint alone: where it gets there at all, it is many minutes behind.
    expect(p.both).toBeGreaterThan(4);
    expect(p.aSooner).toBe(p.both);
    expect(p.onlyB).toBe(0);
    expect(p.meanDiff + p.halfWidth).toBeLessThan(-10);
  });
});
