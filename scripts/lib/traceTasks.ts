import { frameOf } from './cpuProfile';

/**
 * Reading a Chromium performance trace (what `browser.startTracing` writes and DevTools' Performance
 * panel opens): the main thread's long tasks, each broken down into what filled it. For
 * `bench:ui --trace`, which says what a long task was made of where the Long Animation Frames API
 * names only the script that started it.
 */

/** The parts of a trace event this reads (the Trace Event Format). */
export interface TraceEvent {
  name: string;
  cat?: string;
  /** 'X' complete (ts + dur), 'B'/'E' begin/end, 'M' metadata, 'P' sample (profile chunks). */
  ph: string;
  /** Microseconds. */
  ts?: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: Record<string, unknown>;
}

/** What a stretch of a task's time went to. */
export type TaskPart = 'script' | 'garbage collection' | 'style and layout' | 'paint and commit' | 'other';

/** A function's own time inside one task, from the CPU profiler's samples. */
export interface TaskFunction {
  name: string;
  /** The script's file name with the 1-based line and column; empty for V8's own entries. */
  where: string;
  ms: number;
}

/** One long task of a renderer's main thread. */
export interface TraceTask {
  /** Milliseconds from the trace's first event. */
  startMs: number;
  durationMs: number;
  /** The trace events that started it, outermost first under the task (e.g. "TimerFire", "EventDispatch"). */
  cause: string;
  /** Milliseconds of each part, largest first; they add up to the task's duration. */
  parts: { part: TaskPart; ms: number }[];
  /** The functions with the most own time in the task (from profile samples; empty without them). */
  functions: TaskFunction[];
}

const GC = /GC|Scavenge|MarkCompact|MarkSweep|Sweep|Finalize|Heap/i;
const STYLE_LAYOUT =
  /^(UpdateLayoutTree|Layout|RecalculateStyles|UpdateLayerTree|ScheduleStyleRecalculation|InvalidateLayout|HitTest|LocalFrameView::|Document::updateStyle|IntersectionObserverController)/;
const PAINT = /^(Paint|PrePaint|Commit|Layerize|CompositeLayers|UpdateLayer|RasterTask|PaintImage|Decode|ProxyMain::BeginMainFrame::commit)/;
const SCRIPT =
  /^(FunctionCall|EvaluateScript|v8\.|V8\.(?!GC)|RunMicrotasks|TimerFire|FireAnimationFrame|EventDispatch|FireIdleCallback|XHR|ParseHTML|CompileScript|CompileCode|v8::|ParseAuthorStyleSheet|MessagePort|HandlePostMessage)/;

/** Which part an event's own time counts to. */
export function partOf(e: TraceEvent): TaskPart {
  if (GC.test(e.name) || /v8\.gc|BlinkGC/.test(e.cat ?? '')) return 'garbage collection';
  if (STYLE_LAYOUT.test(e.name)) return 'style and layout';
  if (PAINT.test(e.name)) return 'paint and commit';
  if (SCRIPT.test(e.name)) return 'script';
  return 'other';
}

/** Events of the names that mean "the main thread ran a task". */
const TASK_NAMES = new Set(['RunTask', 'ThreadControllerImpl::RunTask', 'ThreadControllerImpl::DoWork']);

interface Span {
  e: TraceEvent;
  start: number;
  end: number;
}

/** Complete spans of one thread's duration events ('X', and 'B'/'E' pairs), sorted by start, outer first. */
function spans(events: readonly TraceEvent[]): Span[] {
  const out: Span[] = [];
  const open: TraceEvent[] = [];
  for (const e of events) {
    if (e.ts === undefined) continue;
    if (e.ph === 'X') out.push({ e, start: e.ts, end: e.ts + (e.dur ?? 0) });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b && b.ts !== undefined) out.push({ e: b, start: b.ts, end: e.ts });
    }
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The main threads of renderers ("CrRendererMain"), as "pid:tid". */
function mainThreads(events: readonly TraceEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name' && (e.args as { name?: string } | undefined)?.name === 'CrRendererMain') out.add(`${e.pid}:${e.tid}`);
  return out;
}

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** One CPU profiler sample: when (µs), the interval before it, and the function at the top of the stack. */
interface Sample {
  ts: number;
  delta: number;
  fn: { name: string; where: string };
}

/** The CPU profiler's samples of each thread ("pid:tid"), in time order. */
function samplesByThread(events: readonly TraceEvent[]): Map<string, Sample[]> {
  const starts = new Map<string, { thread: string; t: number }>();
  const nodes = new Map<string, Map<number, ProfileNode>>();
  const out = new Map<string, Sample[]>();
  const chunks = events.filter((e) => e.ph === 'P' && (e.name === 'Profile' || e.name === 'ProfileChunk'));
  for (const e of chunks) {
    const key = `${e.pid}:${e.id ?? ''}`;
    const data = (e.args as { data?: Record<string, unknown> } | undefined)?.data ?? {};
    if (e.name === 'Profile') {
      starts.set(key, { thread: `${e.pid}:${e.tid}`, t: Number(data.startTime ?? e.ts ?? 0) });
      continue;
    }
    const start = starts.get(key);
    if (!start) continue;
    const profile = (data.cpuProfile ?? {}) as { nodes?: ProfileNode[]; samples?: number[] };
    const known = nodes.get(key) ?? new Map<number, ProfileNode>();
    nodes.set(key, known);
    for (const n of profile.nodes ?? []) known.set(n.id, n);
    const deltas = (data.timeDeltas ?? []) as number[];
    const list = out.get(start.thread) ?? [];
    out.set(start.thread, list);
    const samples = profile.samples ?? [];
    for (let i = 0; i < samples.length; i++) {
      const delta = deltas[i] ?? 0;
      start.t += delta;
      const f = known.get(samples[i])?.callFrame;
      if (f) list.push({ ts: start.t, delta, fn: frameOf(f) });
    }
  }
  for (const list of out.values()) list.sort((a, b) => a.ts - b.ts);
  return out;
}

/**
 * The tasks longer than `thresholdMs` on every renderer main thread of `events`, in order, each with
 * what its time went to: the own time of every event nested in it, sorted into parts, and the
 * functions the CPU profiler sampled most in it.
 */
export function longTasks(events: readonly TraceEvent[], thresholdMs = 50, topFunctions = 6): TraceTask[] {
  const mains = mainThreads(events);
  const byThread = new Map<string, TraceEvent[]>();
  let t0 = Infinity;
  for (const e of events) {
    if (e.ts !== undefined && e.ph !== 'M' && e.ts > 0) t0 = Math.min(t0, e.ts);
    const key = `${e.pid}:${e.tid}`;
    if (!mains.has(key)) continue;
    const list = byThread.get(key) ?? [];
    list.push(e);
    byThread.set(key, list);
  }
  const samples = samplesByThread(events);
  const out: TraceTask[] = [];
  for (const [thread, list] of byThread) {
    const all = spans(list);
    const threadSamples = samples.get(thread) ?? [];
    let lastEnd = -Infinity;
    for (let i = 0; i < all.length; i++) {
      const task = all[i];
      if (!TASK_NAMES.has(task.e.name) || task.end - task.start <= thresholdMs * 1000) continue;
      // A task nested in the one reported last (DoWork around RunTask) is part of it.
      if (task.end <= lastEnd) continue;
      lastEnd = task.end;
      const inside: Span[] = [];
      for (let j = i + 1; j < all.length && all[j].start < task.end; j++) if (all[j].end <= task.end) inside.push(all[j]);
      const parts = new Map<TaskPart, number>();
      // Own time of each span: its length less its direct children's (a stack walk over the sorted spans).
      const stack: { s: Span; own: number }[] = [{ s: task, own: task.end - task.start }];
      const settle = (upTo: number) => {
        while (stack.length > 1 && stack[stack.length - 1].s.end <= upTo) {
          const top = stack.pop()!;
          parts.set(partOf(top.s.e), (parts.get(partOf(top.s.e)) ?? 0) + top.own);
        }
      };
      for (const s of inside) {
        settle(s.start);
        stack[stack.length - 1].own -= s.end - s.start;
        stack.push({ s, own: s.end - s.start });
      }
      settle(Infinity);
      parts.set('other', (parts.get('other') ?? 0) + stack[0].own);
      const fns = new Map<string, TaskFunction>();
      for (let k = 0; k < threadSamples.length; k++) {
        const s = threadSamples[k];
        if (s.ts < task.start || s.ts >= task.end) continue;
        // A sample stands for the time to the next one (DevTools' rule); the last one, for its own interval.
        const next = Math.min(threadSamples[k + 1]?.ts ?? s.ts + s.delta, task.end);
        const key = `${s.fn.name}@${s.fn.where}`;
        const f = fns.get(key) ?? { ...s.fn, ms: 0 };
        f.ms += (next - s.ts) / 1000;
        fns.set(key, f);
      }
      const cause = inside
        .filter((s) => s.start < task.start + 1000 && !TASK_NAMES.has(s.e.name))
        .slice(0, 3)
        .map((s) => s.e.name);
      out.push({
        startMs: (task.start - t0) / 1000,
        durationMs: (task.end - task.start) / 1000,
        cause: cause.join(' > ') || task.e.name,
        parts: [...parts]
          .filter(([, us]) => us > 0)
          .map(([part, us]) => ({ part, ms: us / 1000 }))
          .sort((a, b) => b.ms - a.ms),
        functions: [...fns.values()]
          .filter((f) => f.name !== '(idle)' && f.name !== '(root)')
          .sort((a, b) => b.ms - a.ms)
          .slice(0, topFunctions),
      });
    }
  }
  return out.sort((a, b) => a.startMs - b.startMs);
}
