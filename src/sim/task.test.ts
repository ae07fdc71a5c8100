import { describe, expect, it } from 'vitest';
import { scriptedOrganisation } from './baselines';
import { runEpisodes } from './evaluate';
import {
  calibratedSchedule,
  FAMILIES,
  familyKind,
  generateTask,
  isLongFamily,
  LONG_FAMILIES,
  MAX_MODULES,
  PLANNED,
  SHORT_FAMILIES,
  totalWork,
  type Family,
} from './task';

describe('generateTask', () => {
  it('refuses a family it does not know, naming the ones it does', () => {
    expect(() => generateTask('nonsense' as Family, 1)).toThrow(/unknown task family "nonsense" \(one of parallel, coupled/);
  });

  it('is a pure function of family and seed', () => {
    for (const f of FAMILIES) {
      expect(generateTask(f, 42)).toEqual(generateTask(f, 42));
      expect(generateTask(f, 42)).not.toEqual(generateTask(f, 43));
    }
  });

  it('builds acyclic tasks within the encoding limits', () => {
    for (const f of FAMILIES) {
      for (let seed = 0; seed < 50; seed++) {
        const t = generateTask(f, seed);
        expect(t.modules).toBeLessThanOrEqual(MAX_MODULES);
        for (let k = 0; k < t.modules; k++) {
          expect(t.dep[k]).toBeLessThan(k); // prerequisites come first, so no cycles
          expect(t.tests[k]).toBeGreaterThan(0);
        }
      }
    }
  });

  it('gives each family its own shape', () => {
    const depCount = (f: (typeof FAMILIES)[number]) => {
      const t = generateTask(f, 7);
      return Array.from(t.dep).filter((d) => d >= 0).length;
    };
    expect(depCount('parallel')).toBe(0);
    expect(depCount('coupled')).toBeGreaterThanOrEqual(10);
    const search = generateTask('search', 7);
    expect(Array.from(search.luck).every((p) => p > 0)).toBe(true);
    expect(Array.from(search.dep).slice(1)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('the long families', () => {
  it('follow the handoff rule; the short families do not', () => {
    for (const f of LONG_FAMILIES) expect(generateTask(f, 3).handoff).toBe(true);
    for (const f of SHORT_FAMILIES) expect(generateTask(f, 3).handoff).toBe(false);
  });

  it('put the tests on the features at the ends of the chains, not on the foundations', () => {
    let rootTests = 0;
    let roots = 0;
    let deepTests = 0;
    let deep = 0;
    for (let seed = 0; seed < 50; seed++) {
      const t = generateTask('long-coupled', seed);
      const depth = (k: number): number => (t.dep[k] < 0 ? 0 : 1 + depth(t.dep[k]));
      for (let k = 0; k < t.modules; k++) {
        expect(depth(k)).toBeLessThanOrEqual(3);
        if (depth(k) === 0) {
          rootTests += t.tests[k];
          roots++;
        }
        if (depth(k) >= 2) {
          deepTests += t.tests[k];
          deep++;
        }
      }
    }
    expect(deepTests / deep).toBeGreaterThan(2.5 * (rootTests / roots));
  });

  it('make modules several times larger than the short ones', () => {
    const meanWork = (f: (typeof FAMILIES)[number]) => {
      let s = 0;
      let n = 0;
      for (let seed = 0; seed < 30; seed++) {
        const t = generateTask(f, seed);
        for (let k = 0; k < t.modules; k++) {
          s += t.luck[k] > 0 ? 1 / t.luck[k] : t.work[k];
          n++;
        }
      }
      return s / n;
    };
    expect(meanWork('long-coupled')).toBeGreaterThan(2.5 * meanWork('coupled'));
    expect(meanWork('long-parallel')).toBeGreaterThan(2.5 * meanWork('parallel'));
    expect(meanWork('long-search')).toBeGreaterThan(2.5 * meanWork('search'));
  });

  it('name their kind', () => {
    expect(familyKind('long-search')).toBe('search');
    expect(familyKind('coupled')).toBe('coupled');
    expect(isLongFamily('long-mixed')).toBe(true);
    expect(isLongFamily('mixed')).toBe(false);
  });
});

describe('the long horizon', () => {
  it('gives every agent about 80 decisions at the calibrated final deadline, and the deadline binds', async () => {
    const { end } = calibratedSchedule('long-coupled');
    expect(end).toBe(80);
    const tasks = Array.from({ length: 16 }, (_, i) => generateTask('long-coupled', 1_000_000_000 + i));
    const { stats } = await runEpisodes(scriptedOrganisation, tasks, 8, 1, end);
    // Minutes played: every agent decides once per minute until all tests pass or the deadline cuts.
    const minutes = stats.reduce((s, x) => s + x.tEnd, 0) / stats.length;
    expect(minutes).toBeGreaterThan(0.85 * end);
    // The scripted organisation needs most of the deadline to reach 90% of the tests.
    const t90 = stats.map((x) => x.t90 ?? end);
    expect(t90.reduce((a, b) => a + b, 0) / t90.length).toBeGreaterThan(0.7 * end);
    // The short coupled family is done in a third of that.
    const short = await runEpisodes(
      scriptedOrganisation,
      Array.from({ length: 16 }, (_, i) => generateTask('coupled', 1_000_000_000 + i)),
      8,
      1,
      calibratedSchedule('coupled').end,
    );
    expect(short.stats.reduce((s, x) => s + x.tEnd, 0) / 16).toBeLessThan(minutes / 3);
  });
});

describe('long-planned: a sprint planned to the team’s capacity', () => {
  it('has short foundations with few tests and, on one foundation each, long features that carry the tests', () => {
    const tasks = Array.from({ length: 50 }, (_, seed) => generateTask('long-planned', seed));
    const foundations = tasks.flatMap((t) => Array.from({ length: PLANNED.foundations }, (_, k) => ({ dep: t.dep[k], work: t.work[k], tests: t.tests[k] })));
    const features = tasks.flatMap((t) =>
      Array.from({ length: t.modules - PLANNED.foundations }, (_, i) => {
        const k = PLANNED.foundations + i;
        return { dep: t.dep[k], work: t.work[k], tests: t.tests[k] };
      }),
    );
    expect(tasks.every((t) => t.modules === 12 && t.handoff)).toBe(true);
    expect(foundations.every((m) => m.dep === -1 && m.tests === PLANNED.foundationTests)).toBe(true);
    expect(Math.min(...foundations.map((m) => m.work))).toBe(PLANNED.foundationWork[0]);
    expect(Math.max(...foundations.map((m) => m.work))).toBe(PLANNED.foundationWork[1]);
    expect(features.every((m) => m.dep >= 0 && m.dep < PLANNED.foundations && m.tests === PLANNED.featureTests)).toBe(true);
    expect(Math.min(...features.map((m) => m.work))).toBe(PLANNED.featureWork[0]);
    expect(Math.max(...features.map((m) => m.work))).toBe(PLANNED.featureWork[1]);
    // Over the sprints, features are built on every one of the foundations.
    expect(new Set(features.map((m) => m.dep)).size).toBe(PLANNED.foundations);
    expect(familyKind('long-planned')).toBe('coupled');
    expect(isLongFamily('long-planned')).toBe(true);
  });

  it('fills most of eight agents’ minutes at the final deadline, which binds: idle hands have work of their own', async () => {
    const { end } = calibratedSchedule('long-planned');
    const tasks = Array.from({ length: 16 }, (_, i) => generateTask('long-planned', 1_000_000_000 + i));
    const work = tasks.reduce((s, t) => s + totalWork(t), 0) / tasks.length;
    // The nominal work is between 80% and 90% of the team's agent-minutes at 72 minutes (long-coupled: about 30% at 80).
    expect(end).toBe(72);
    expect(work).toBeGreaterThan(0.8 * 8 * end);
    expect(work).toBeLessThan(0.9 * 8 * end);
    const coupled = Array.from({ length: 16 }, (_, i) => totalWork(generateTask('long-coupled', 1_000_000_000 + i))).reduce((a, b) => a + b, 0) / 16;
    expect(coupled).toBeLessThan(0.4 * 8 * end);
    // The scripted organisation needs most of the deadline to reach 90% of the tests, and every
    // feature needs its foundation's interface handed to whoever builds it.
    const { stats } = await runEpisodes(scriptedOrganisation, tasks, 8, 1, end);
    const t90 = stats.map((x) => x.t90 ?? end);
    expect(t90.reduce((a, b) => a + b, 0) / t90.length).toBeGreaterThan(0.75 * end);
    expect(stats.reduce((s, x) => s + x.ret, 0) / stats.length).toBeGreaterThan(0.95);
    expect(stats.every((x) => x.metrics.handoffs > 0)).toBe(true);
  });
});
