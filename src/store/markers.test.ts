import { describe, expect, it } from 'vitest';
import { RunRecorder } from '../core/recorder';
import { fakeUpdate, testConfig } from '../core/testing';
import { markerIndex, phaseMarkers, recordedMarkers, settingMarkers } from './markers';

describe('curve markers', () => {
  it('names each changed setting with its old and new value', () => {
    const before = testConfig({ tmaxStart: 8, tmaxEnd: 24 });
    const marks = settingMarkers(before, { ...before, tmaxStart: 20 }, 7);
    expect(marks).toEqual([{ update: 7, kind: 'setting', label: 'deadline start 8 → 20' }]);
    expect(settingMarkers(before, before, 3)).toEqual([]);
  });

  it('marks the imitation prior ending and RLCR starting, with the deadline it starts at', () => {
    const metrics = [0, 1, 2, 3].map((u) => ({ ...fakeUpdate(u).metrics, phase: u < 2 ? ('prior' as const) : ('rlcr' as const), tmax: u < 2 ? 24 : 8 }));
    expect(phaseMarkers(metrics)).toEqual([{ update: 2, kind: 'phase', label: 'prior (copying) ends, RLCR starts (deadline 24 → 8 min)' }]);
  });

  it("reads a recorded run's changes one after the other", () => {
    const a = testConfig({ tmaxEnd: 24 });
    const b = { ...a, tmaxEnd: 30 };
    const c = { ...b, lr: 0.01 };
    const marks = recordedMarkers(a, [
      { update: 4, config: b },
      { update: 9, config: c },
    ]);
    expect(marks.map((m) => [m.update, m.label])).toEqual([
      [4, 'deadline end 24 → 30'],
      [9, `learning rate ${a.lr} → 0.01`],
    ]);
  });

  it('places a marker at the first recorded update at or after it', () => {
    const metrics = [5, 6, 8].map((u) => fakeUpdate(u).metrics);
    expect(markerIndex(metrics, 7)).toBe(2);
    expect(markerIndex(metrics, 9)).toBe(-1);
    expect(markerIndex([], 0)).toBe(-1);
  });

  it('finds the same place as a scan from the start, in a long run with gaps', () => {
    const metrics = Array.from({ length: 500 }, (_, i) => fakeUpdate(3 * i + (i % 2)).metrics);
    for (let u = -2; u < 1_510; u += 7) expect(markerIndex(metrics, u)).toBe(metrics.findIndex((m) => m.update >= u));
  });
});

describe("the live run's markers in the store", () => {
  it("records the changes the worker applied by the recorder's rule, so live and replayed markers agree, and forgets them when the run is cleared", async () => {
    const { useApp, selectChangeRecord } = await import('./store');
    const first = testConfig({ tmaxStart: 8 });
    const recorder = new RunRecorder(first);
    useApp.setState({ config: first });
    useApp.getState().clearRun();
    expect(selectChangeRecord(useApp.getState())).toBeNull();
    // Each change as the worker applies it: the recorder notes it, the page hears the update it took effect at.
    const apply = (patch: Partial<typeof first>, update: number) => {
      while (recorder.nextUpdate < update) recorder.push(fakeUpdate(recorder.nextUpdate));
      const before = useApp.getState().config;
      useApp.getState().setConfig(patch);
      const after = useApp.getState().config;
      recorder.setConfig(after);
      useApp.getState().noteConfigChange(before, after, update);
    };
    apply({ tmaxStart: 12 }, 2);
    apply({ tmaxStart: 14 }, 5);
    // Changed again before the next update: it replaces the change at update 5.
    apply({ tmaxStart: 16 }, 5);
    apply({ lr: 0.01 }, 7);
    // Back to the settings before it, at the same update: no change at update 7.
    apply({ lr: first.lr }, 7);
    const live = recordedMarkers(first, selectChangeRecord(useApp.getState())!.configChanges);
    const run = recorder.snapshot();
    expect(live).toEqual(recordedMarkers(run.config, run.configChanges));
    expect(live.map((m) => [m.update, m.label])).toEqual([
      [2, 'deadline start 8 → 12'],
      [5, 'deadline start 12 → 16'],
    ]);
    // A replay shows its run's own record.
    useApp.setState({ replay: { run: { ...run, configChanges: [] }, id: null, index: 0 } });
    expect(selectChangeRecord(useApp.getState())!.configChanges).toEqual([]);
    useApp.setState({ replay: null });
    useApp.getState().clearRun();
    expect(useApp.getState().liveChanges).toBeNull();
  });
});
