import { describe, expect, it } from 'vitest';
import type { TalkRecord } from '../core/runFormat';
import { fakeRun, fakeUpdate, measuredTalk } from '../core/testing';
import { selectMetrics, selectShownTalk, useApp } from '../store/store';
import { firstCoordinated } from '../store/talkHistory';
import { apart, coordinationMark, coordinationWords } from './coordinationText';

const measured = measuredTalk;

const metrics = (n: number) => Array.from({ length: n }, (_, u) => fakeUpdate(u, n).metrics);

describe('numbers beside their limits', () => {
  it('adds decimals only where a value and its limit would print the same', () => {
    expect(apart(0.934, 0.93, 3)).toEqual(['0.934', '0.930']);
    expect(apart(15.4, 15, 0)).toEqual(['15.4', '15.0']);
    expect(apart(49.96, 50, 0)).toEqual(['49.96', '50.00']);
    expect(apart(15, 15, 0)).toEqual(['15', '15']);
    // Stops after four more decimals.
    expect(apart(0.1 + 1e-12, 0.1, 3)[0]).toBe('0.1000000');
  });
});

describe('the coordination line', () => {
  it('words each condition of the measurement on screen, met or not', () => {
    const r = measured(30, 0.934, 88, 0.62);
    const w = coordinationWords([r], r);
    expect(w.first).toBeNull();
    expect(w.met).toBe(false);
    expect(w.headline).toBe('Not coordinated yet. Latest measurement (update 30): 2 of 3 met.');
    expect(w.conditions.map((k) => [k.key, k.met, k.shown, k.text])).toEqual([
      ['return', true, '0.934', 'return 0.934, target 0.930 or more (scripted 0.950 − 0.02)'],
      ['duplicates', false, '22%', 'duplicate work 22% of useful work, at most 15%'],
      ['needed', true, '62%', 'needed deliveries 62%, at least 50%'],
    ]);
  });

  it('never shows a missed condition with the same figure as its limit', () => {
    const w = coordinationWords([], measured(30, 0.9299, 61.6, 0.4996));
    expect(w.conditions.map((k) => [k.met, k.shown])).toEqual([
      [false, '0.9299'],
      [false, '15.4%'],
      [false, '49.96%'],
    ]);
    expect(w.conditions[0].text).toBe('return 0.9299, target 0.9300 or more (scripted 0.950 − 0.02)');
  });

  it('names the first coordinated update, and keeps it when a later measurement misses a condition', () => {
    const h = [measured(10, 0.5, 200, 0.2), measured(20, 0.94, 40, 0.8), measured(30, 0.94, 40, 0.3), measured(40, 0.95, 20, 0.9)];
    expect(coordinationWords(h, h[0]).headline).toBe('Not coordinated yet. Latest measurement (update 10): 0 of 3 met.');
    const at20 = coordinationWords(h, h[1]);
    expect([at20.first, at20.met, at20.headline]).toEqual([20, true, 'Coordinated at update 20: all three conditions met.']);
    const at30 = coordinationWords(h, h[2]);
    expect([at30.first, at30.met, at30.headline]).toEqual([20, false, 'Coordinated at update 20. Latest measurement (update 30): 2 of 3 met.']);
    expect(at30.conditions.find((k) => k.key === 'needed')).toMatchObject({ met: false, shown: '30%' });
    expect(coordinationWords(h, h[3]).headline).toBe('Coordinated at update 20. Latest measurement (update 40): all three met.');
  });

  it('in a replay only counts the measurements up to the one on screen', () => {
    const h = [measured(10, 0.5, 200, 0.2), measured(20, 0.94, 40, 0.8)];
    expect(coordinationWords(h, h[0]).first).toBeNull();
  });

  it('says when a measurement cannot tell, without inventing figures', () => {
    const old: TalkRecord = { updates: 10, tmax: 24, tasks: 8, ret: 0.99, muted: 0.4, neededShare: 0.9, messages: 5 };
    const w = coordinationWords([old], old);
    expect([w.first, w.met, w.conditions]).toEqual([null, null, []]);
    expect(w.headline).toBe('Not known: this run was recorded before coordination was measured.');
    const failed = { ...measured(50, NaN, 20, 0.9) };
    const h = [measured(40, 0.95, 20, 0.9), failed];
    expect(coordinationWords(h, failed).headline).toBe('Coordinated at update 40. Latest measurement (update 50): could not be taken.');
    expect(coordinationWords([failed], failed).headline).toBe('Not known: the latest measurement (update 50) could not be taken.');
  });

  it('writes a swarm coordinated from the start as before training, and duplicates without useful work as such', () => {
    const r = measured(0, 0.95, 0, 0.9);
    expect(coordinationWords([r], r).headline).toBe('Coordinated before training: all three conditions met.');
    const idle = { ...measured(10, 0.2, 5, 0.9), useful: 0 };
    expect(coordinationWords([idle], idle).conditions[1]).toMatchObject({
      met: false,
      shown: 'all',
      text: 'duplicate work with no useful work, at most 15% of useful work',
    });
  });
});

describe("the curve's coordination marker", () => {
  it('sits at the update the first coordinated measurement was taken after, and names the three conditions', () => {
    const h = [measured(10, 0.5, 200, 0.2), measured(20, 0.94, 40, 0.8), measured(30, 0.95, 20, 0.9)];
    const mark = coordinationMark(firstCoordinated(h), metrics(40));
    expect(mark).toEqual({
      updates: 20,
      index: 19,
      label: 'coordinated',
      title:
        'Coordinated at update 20, on 8 fresh tasks at the 24-minute deadline: return 0.940, target 0.930 or more (scripted 0.950 − 0.02); ' +
        'duplicate work 10% of useful work, at most 15%; needed deliveries 80%, at least 50%.',
    });
  });

  it('finds its place among metrics that start later than update 0', () => {
    const later = metrics(40).slice(5);
    expect(coordinationMark(measured(20, 0.94, 40, 0.8), later)?.index).toBe(14);
  });

  it('is absent without a coordinated measurement, for an older run file, and until the update is on the curve', () => {
    expect(coordinationMark(firstCoordinated([measured(10, 0.5, 200, 0.2)]), metrics(40))).toBeNull();
    const old: TalkRecord = { updates: 10, tmax: 24, tasks: 8, ret: 0.99, muted: 0.4, neededShare: 0.9, messages: 5 };
    expect(coordinationMark(firstCoordinated([old]), metrics(40))).toBeNull();
    // Measured after update 20, drawn once the curve has it.
    const r = measured(20, 0.94, 40, 0.8);
    expect(coordinationMark(r, metrics(19))).toBeNull();
    expect(coordinationMark(r, metrics(20))?.index).toBe(19);
    // Before training: at the curve's first update.
    expect(coordinationMark(measured(0, 0.95, 0, 0.9), metrics(3))?.index).toBe(0);
    expect(coordinationMark(measured(0, 0.95, 0, 0.9), [])).toBeNull();
  });
});

describe('the marker follows the run on screen', () => {
  const shownMark = () => {
    const s = useApp.getState();
    return coordinationMark(firstCoordinated(selectShownTalk(s)), selectMetrics(s));
  };

  it('appears on the live curve as soon as the coordinated measurement arrives, and a replay shows its own run', () => {
    const s = useApp.getState();
    s.clearRun();
    useApp.setState({ metrics: metrics(20) });
    s.pushTalk({ ...measured(10, 0.5, 200, 0.2), ms: 5 });
    expect(shownMark()).toBeNull();
    s.pushTalk({ ...measured(20, 0.94, 40, 0.8), ms: 5 });
    expect(shownMark()).toMatchObject({ updates: 20, index: 19 });
    // A replay of an older run file (no work or reference kept) shows no marker; back to the live run, it is there again.
    const old = { ...fakeRun(30), talk: [{ updates: 10, tmax: 24, tasks: 8, ret: 0.99, muted: 0.4, neededShare: 0.9, messages: 5 }] };
    s.enterReplay(old, null);
    expect(shownMark()).toBeNull();
    useApp.getState().leaveReplay();
    expect(shownMark()).toMatchObject({ updates: 20 });
    // A reset forgets it.
    useApp.getState().clearRun();
    expect(shownMark()).toBeNull();
  });
});
