import { describe, expect, it } from 'vitest';
import { isBusy, selfTimes, type CpuProfile } from './cpuProfile';

const frame = (functionName: string, url = '', lineNumber = 0, columnNumber = 0) => ({ functionName, url, lineNumber, columnNumber });

/** root -> (idle); root -> draw -> path; root -> other draw node of the same function (called from elsewhere). */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)') },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('draw', 'http://localhost:4192/assets/index-abc.js', 9, 4) },
    { id: 4, callFrame: frame('', 'http://localhost:4192/assets/index-abc.js', 20, 0) },
    { id: 5, callFrame: frame('draw', 'http://localhost:4192/assets/index-abc.js', 9, 4) },
    { id: 6, callFrame: frame('(garbage collector)') },
  ],
  startTime: 1_000,
  endTime: 11_000,
  // Samples at 1,000 + 0, 1,000, 3,000, 6,000, 7,000 µs: each lasts until the next; the last until the end.
  samples: [2, 3, 4, 5, 6],
  timeDeltas: [0, 1_000, 2_000, 3_000, 1_000],
};

describe('selfTimes', () => {
  it('gives each sample the time to the next one and adds up the nodes of one function', () => {
    const t = selfTimes(PROFILE);
    expect(t).toEqual([
      { name: 'draw', where: 'index-abc.js:10:5', selfMs: 2 + 1 },
      { name: '(anonymous)', where: 'index-abc.js:21:1', selfMs: 3 },
      { name: '(garbage collector)', where: '', selfMs: 3 },
      { name: '(idle)', where: '', selfMs: 1 },
    ]);
    // The samples cover the whole profile.
    expect(t.reduce((a, e) => a + e.selfMs, 0)).toBe((PROFILE.endTime - PROFILE.startTime) / 1000);
  });

  it('reads a profile without samples as empty', () => {
    expect(selfTimes({ nodes: PROFILE.nodes, startTime: 0, endTime: 5 })).toEqual([]);
  });

  it("counts everything but idle as busy, the renderer's own work and the garbage collector included", () => {
    expect(
      selfTimes(PROFILE)
        .filter(isBusy)
        .map((e) => e.name),
    ).toEqual(['draw', '(anonymous)', '(garbage collector)']);
    expect(isBusy({ name: '(program)', where: '', selfMs: 1 })).toBe(true);
  });
});
