import { describe, expect, it } from 'vitest';
import type { TalkRecord } from '../core/runFormat';
import { fakeRun, measuredTalk } from '../core/testing';
import type { TalkReport } from '../worker/protocol';
import { useApp } from './store';
import { firstCoordinated, MAX_TALK, replayTalk, talkAt, talkCoordination, withTalk } from './talkHistory';

const report = (updates: number, ret = 0.5): TalkReport => ({ updates, tmax: 24, tasks: 8, ret, muted: 0.4, neededShare: 0.3, messages: 5, ms: 100 });
const updatesOf = (h: readonly TalkRecord[]) => h.map((r) => r.updates);

describe('talk history', () => {
  it('appends in update order, replaces a measurement at the same count, restarts on a lower one', () => {
    let h = withTalk([], report(0));
    h = withTalk(h, report(25));
    h = withTalk(h, report(30));
    expect(updatesOf(h)).toEqual([0, 25, 30]);
    h = withTalk(h, report(30, 0.9));
    expect(updatesOf(h)).toEqual([0, 25, 30]);
    expect(h[2].ret).toBe(0.9);
    // A reset trainer measures from 0 again: the old run's figures go.
    h = withTalk(h, report(0, 0.1));
    expect(h).toEqual([report(0, 0.1)]);
  });

  it('keeps at most MAX_TALK measurements, dropping the oldest', () => {
    let h: TalkReport[] = [];
    for (let u = 0; u < MAX_TALK + 5; u++) h = withTalk(h, report(u));
    expect(h).toHaveLength(MAX_TALK);
    expect(h[0].updates).toBe(5);
    expect(h.at(-1)?.updates).toBe(MAX_TALK + 4);
  });

  it('finds the newest measurement at or before an update count', () => {
    const h = [report(0), report(25), report(50)];
    expect(talkAt(h)?.updates).toBe(50);
    expect(talkAt(h, 49)?.updates).toBe(25);
    expect(talkAt(h, 25)?.updates).toBe(25);
    expect(talkAt([], 10)).toBeUndefined();
  });

  it('shows a replay the measurement its recording held at the replayed update, or none', () => {
    const run = fakeRun(10);
    expect(replayTalk(run, 9)).toBeUndefined();
    const { ms: _a, ...t0 } = report(0);
    const { ms: _b, ...t5 } = report(5);
    const withTalkRun = { ...run, talk: [t0, t5] };
    // Position 3 in the metrics is update 3: four updates done.
    expect(replayTalk(withTalkRun, 3)?.updates).toBe(0);
    expect(replayTalk(withTalkRun, 4)?.updates).toBe(5);
    expect(replayTalk(withTalkRun, 99)?.updates).toBe(5);
  });
});

describe('store talk slice', () => {
  it('keeps the latest figures and their history, and forgets them when the run resets', () => {
    const s = useApp.getState();
    s.clearRun();
    s.pushTalk(report(0));
    s.pushTalk(report(25, 0.7));
    expect(updatesOf(useApp.getState().talk)).toEqual([0, 25]);
    expect(talkAt(useApp.getState().talk)?.ret).toBe(0.7);
    useApp.getState().clearRun();
    expect(useApp.getState().talk).toEqual([]);
  });
});

describe('coordination in the talk history', () => {
  const measured = (updates: number, ret: number, duplicate: number, neededShare: number) => measuredTalk(updates, ret, duplicate, neededShare, 72);

  it('finds the first measurement that meets all three conditions', () => {
    const h = [
      measured(10, 0.5, 200, 0.2),
      measured(20, 0.94, 100, 0.8),
      measured(30, 0.94, 40, 0.3),
      measured(40, 0.94, 40, 0.8),
      measured(50, 0.95, 20, 0.9),
    ];
    expect(firstCoordinated(h)?.updates).toBe(40);
    expect(talkCoordination(h[1])).toMatchObject({ returnMet: true, splitMet: false, talkMet: true });
  });

  it('cannot tell from a measurement recorded before the work and the reference were kept, or a NaN one', () => {
    const old: TalkRecord = { updates: 10, tmax: 80, tasks: 8, ret: 0.99, muted: 0.4, neededShare: 0.9, messages: 5 };
    expect(talkCoordination(old)).toBeNull();
    expect(talkCoordination({ ...measured(10, 0.95, 0, 0.9), ret: NaN })).toBeNull();
    expect(firstCoordinated([old])).toBeUndefined();
  });
});
