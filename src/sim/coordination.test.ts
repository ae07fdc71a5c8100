import { describe, expect, it } from 'vitest';
import { coordination, coordinationGaps, duplicateShare, MAX_DUPLICATE_SHARE, MIN_NEEDED_SHARE, RETURN_MARGIN } from './coordination';
import { generateTask } from './task';
import { runEpisodes, summariseWork } from './evaluate';
import { scriptedOrganisation, singleChain } from './baselines';
import { tasksWithCosts } from './costs';

/** A hand-made evaluation that meets all three conditions with room to spare. */
const good = { ret: 0.95, useful: 400, duplicate: 20, neededShare: 0.9 };
const SCRIPTED = 0.96;

describe('coordination', () => {
  it('holds when the return, the split of the work and the talk all meet the definition', () => {
    const c = coordination(good, SCRIPTED);
    expect(c).toMatchObject({ returnMet: true, splitMet: true, talkMet: true, met: true });
    expect(c.target).toBeCloseTo(SCRIPTED - RETURN_MARGIN, 12);
    expect(coordinationGaps(c)).toBe('coordinated');
  });

  it('fails on the return alone: under the scripted organisation minus the margin', () => {
    const c = coordination({ ...good, ret: SCRIPTED - RETURN_MARGIN - 0.001 }, SCRIPTED);
    expect(c).toMatchObject({ returnMet: false, splitMet: true, talkMet: true, met: false });
    expect(coordinationGaps(c)).toMatch(/^return under 0\.940$/);
    // At the margin exactly it holds.
    expect(coordination({ ...good, ret: SCRIPTED - RETURN_MARGIN }, SCRIPTED).returnMet).toBe(true);
  });

  it('fails on piling alone: duplicates over the share of useful work', () => {
    const c = coordination({ ...good, duplicate: good.useful * MAX_DUPLICATE_SHARE + 1 }, SCRIPTED);
    expect(c).toMatchObject({ returnMet: true, splitMet: false, talkMet: true, met: false });
    expect(coordinationGaps(c)).toBe('duplicates over 15% of useful work');
    expect(coordination({ ...good, duplicate: good.useful * MAX_DUPLICATE_SHARE }, SCRIPTED).splitMet).toBe(true);
  });

  it('fails on talk alone: too few deliveries needed, or none at all', () => {
    const c = coordination({ ...good, neededShare: MIN_NEEDED_SHARE - 0.01 }, SCRIPTED);
    expect(c).toMatchObject({ returnMet: true, splitMet: true, talkMet: false, met: false });
    expect(coordinationGaps(c)).toBe('under 50% of deliveries needed');
    expect(coordination({ ...good, neededShare: 0 }, SCRIPTED).talkMet).toBe(false);
  });

  it('names every gap when all three fail', () => {
    expect(coordinationGaps(coordination({ ret: 0.1, useful: 10, duplicate: 10, neededShare: 0 }, SCRIPTED))).toBe(
      'return under 0.940, duplicates over 15% of useful work, under 50% of deliveries needed',
    );
  });

  it('reads duplicate work against useful work, with the empty cases defined', () => {
    expect(duplicateShare({ useful: 200, duplicate: 30 })).toBeCloseTo(0.15, 12);
    expect(duplicateShare({ useful: 0, duplicate: 0 })).toBe(0);
    expect(duplicateShare({ useful: 0, duplicate: 5 })).toBe(Infinity);
    expect(coordination({ ...good, useful: 0, duplicate: 5 }, SCRIPTED).splitMet).toBe(false);
  });

  it('on real episodes: the scripted organisation meets it against itself, the single chain does not', async () => {
    const tasks = tasksWithCosts(
      [1, 2, 3, 4].map((s) => generateTask('long-planned', 1_000_000_000 + s)),
      { interrupt: true, broadcast: true, conflict: false, merge: false },
    );
    const org = summariseWork((await runEpisodes(scriptedOrganisation, tasks, 8, 1, 72)).stats, 8);
    const chain = summariseWork((await runEpisodes(singleChain, tasks, 8, 1, 72)).stats, 8);
    expect(coordination(org, org.ret).met).toBe(true);
    const c = coordination(chain, org.ret);
    expect(c.returnMet).toBe(false);
    expect(c.met).toBe(false);
  });
});
