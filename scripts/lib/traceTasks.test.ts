import { describe, expect, it } from 'vitest';
import { longTasks, partOf, type TraceEvent } from './traceTasks';

const PID = 7;
const MAIN = 1;
const WORKER = 2;
const meta = (tid: number, name: string): TraceEvent => ({ name: 'thread_name', ph: 'M', pid: PID, tid, args: { name } });
const span = (name: string, ts: number, dur: number, tid = MAIN): TraceEvent => ({ name, ph: 'X', ts, dur, pid: PID, tid });

/** A main thread with one 80 ms task: a timer's script (40 ms, 10 of them garbage collection), then 25 ms of layout. */
function trace(): TraceEvent[] {
  return [
    meta(MAIN, 'CrRendererMain'),
    meta(WORKER, 'DedicatedWorker thread'),
    span('RunTask', 1_000, 80_000),
    span('TimerFire', 1_000, 40_000),
    span('FunctionCall', 1_000, 40_000),
    span('MinorGC', 20_000, 10_000),
    span('Layout', 45_000, 25_000),
    // A short task, and a long one on another thread: neither is reported.
    span('RunTask', 100_000, 20_000),
    span('RunTask', 500, 200_000, WORKER),
    // The CPU profiler: 1 ms samples in `tick` then `draw` (each 20 ms), on the main thread.
    { name: 'Profile', ph: 'P', id: '0x1', pid: PID, tid: MAIN, ts: 1_000, args: { data: { startTime: 1_000 } } },
    {
      name: 'ProfileChunk',
      ph: 'P',
      id: '0x1',
      pid: PID,
      tid: MAIN,
      ts: 1_000,
      args: {
        data: {
          cpuProfile: {
            nodes: [
              { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 } },
              { id: 2, parent: 1, callFrame: { functionName: 'tick', url: 'http://localhost/assets/main.js', lineNumber: 0, columnNumber: 99 } },
              { id: 3, parent: 1, callFrame: { functionName: 'draw', url: 'http://localhost/assets/main.js', lineNumber: 4, columnNumber: 0 } },
            ],
            samples: [...Array(20).fill(2), ...Array(20).fill(3)],
          },
          timeDeltas: Array(40).fill(1_000),
        },
      },
    },
  ];
}

describe('longTasks', () => {
  it('finds the long tasks of the main thread only, and splits each into parts that add up to it', () => {
    const tasks = longTasks(trace(), 50);
    expect(tasks).toHaveLength(1);
    const [t] = tasks;
    expect(t.startMs).toBe(0.5);
    expect(t.durationMs).toBe(80);
    expect(t.cause).toBe('TimerFire > FunctionCall');
    const parts = Object.fromEntries(t.parts.map((p) => [p.part, p.ms]));
    expect(parts).toEqual({ script: 30, 'garbage collection': 10, 'style and layout': 25, other: 15 });
    expect(t.parts.reduce((s, p) => s + p.ms, 0)).toBeCloseTo(80);
  });

  it('names the functions sampled most in the task, with file, line and column', () => {
    const [t] = longTasks(trace(), 50);
    expect(t.functions.map((f) => [f.name, f.where, Math.round(f.ms)])).toEqual([
      ['tick', 'main.js:1:100', 20],
      ['draw', 'main.js:5:1', 20],
    ]);
  });

  it('reports nothing under the threshold', () => {
    expect(longTasks(trace(), 100)).toEqual([]);
  });
});

describe('partOf', () => {
  it('sorts trace events into parts', () => {
    expect(partOf(span('V8.GC_SCAVENGER_SCAVENGE', 0, 1))).toBe('garbage collection');
    expect(partOf(span('UpdateLayoutTree', 0, 1))).toBe('style and layout');
    expect(partOf(span('Paint', 0, 1))).toBe('paint and commit');
    expect(partOf(span('EventDispatch', 0, 1))).toBe('script');
    expect(partOf(span('ParseBlink', 0, 1))).toBe('other');
  });
});
