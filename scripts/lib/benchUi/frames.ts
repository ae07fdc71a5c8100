/** bench:ui's default measurement: long tasks and frame times while the page trains with every view live, checked against the goal. */
import { longTasks as traceLongTasks, type TraceEvent, type TraceTask } from '../traceTasks';
import type { Options } from './options';
import { openBenchPage, r1, updateIndex } from './page';

/** Tasks longer than this are long tasks (the Long Tasks API threshold). */
const LONG_TASK_MS = 50;
/** Goal from the issue: no long tasks while training, p95 frame time at most this. */
const GOAL_P95_MS = 20;
const BACKEND_TIMEOUT_MS = 120_000;
/** Longest wait for --after-updates to be reached. */
const WARMUP_TIMEOUT_MS = 30 * 60_000;

// ---------------------------------------------------------------- in-page probes

/** One long task as the page saw it, with Chromium's (coarse) container attribution. */
interface LongTask {
  start: number;
  duration: number;
  attribution: string;
}

/** One long animation frame's longest script, for pointing at the code behind long tasks. */
interface LongFrameScript {
  start: number;
  frameDuration: number;
  duration: number;
  invoker: string;
  source: string;
}

/** One long animation frame (over 50 ms) and what filled it, from the Long Animation Frames API. */
interface LongFrame {
  start: number;
  duration: number;
  /** Milliseconds of scripts the API lists (those over 5 ms). */
  scriptMs: number;
  /** From the start of rendering (rAF callbacks, style, layout, paint) to the frame's end; 0 without rendering. */
  renderMs: number;
  /** Style and layout at the end of the frame. */
  styleLayoutMs: number;
  /** Its longest scripts: what ran them and where. */
  scripts: { invoker: string; source: string; duration: number }[];
}

interface Probe {
  longTasks: LongTask[];
  longFrames: LongFrame[];
  /** requestAnimationFrame timestamps. */
  frames: number[];
  scripts: LongFrameScript[];
  noLongTaskApi: boolean;
}

declare global {
  interface Window {
    __benchUi?: Probe;
  }
}

/**
 * Runs in the page before any of its scripts: records long tasks, long frames and rAF timestamps.
 * Plain JavaScript text rather than a function: tsx's transform would wrap named inner functions
 * in a `__name` helper that does not exist in the page.
 */
const PROBE_SCRIPT = `(() => {
  const probe = { longTasks: [], longFrames: [], frames: [], scripts: [], noLongTaskApi: false };
  window.__benchUi = probe;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const a = e.attribution || [];
        probe.longTasks.push({
          start: e.startTime,
          duration: e.duration,
          attribution: [e.name, ...a.map((x) => [x.name, x.containerType, x.containerSrc || x.containerName].filter(Boolean).join(':'))].join(' '),
        });
      }
    }).observe({ type: 'longtask', buffered: true });
  } catch (err) {
    probe.noLongTaskApi = true;
  }
  const where = (s) => (s.sourceFunctionName || '(anonymous)') + ' @ ' + String(s.sourceURL).replace(/^.*\\//, '') + ':' + s.sourceCharPosition;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.duration > 50) {
          const end = e.startTime + e.duration;
          const all = (e.scripts || []).map((s) => ({
            invoker: s.invoker,
            source: where(s),
            duration: s.duration,
          }));
          probe.longFrames.push({
            start: e.startTime,
            duration: e.duration,
            scriptMs: all.reduce((t, s) => t + s.duration, 0),
            renderMs: e.renderStart > 0 ? end - e.renderStart : 0,
            styleLayoutMs: e.styleAndLayoutStart > 0 ? end - e.styleAndLayoutStart : 0,
            scripts: all.sort((a, b) => b.duration - a.duration).slice(0, 3),
          });
        }
        for (const s of e.scripts || []) {
          if (s.duration < 10) continue;
          probe.scripts.push({
            start: e.startTime,
            frameDuration: e.duration,
            duration: s.duration,
            invoker: s.invoker,
            source: where(s),
          });
        }
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch (err) {
    // optional diagnostics only
  }
  const tick = (t) => {
    probe.frames.push(t);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface Report {
  url: string;
  backend: string;
  /** The badge's technical detail: why this backend, the threads and why, the timings. */
  backendDetails: string[];
  /** Whether the page was cross-origin isolated (required for wasm threads). */
  crossOriginIsolated: boolean;
  /** Updates the run had when the measured seconds began (--after-updates). */
  afterUpdates: number;
  /** The page's own speed readout at the end of the measured seconds. */
  pageReadout: { rate: string; eta: string };
  seconds: number;
  measuredSeconds: number;
  /** The run reached its last update before the window's end; the window ended there. */
  finishedEarly: boolean;
  updates: { start: number; end: number; completed: number; perSecond: number };
  longTasks: { thresholdMs: number; apiAvailable: boolean; count: number; totalMs: number; longestMs: number; entries: LongTask[] };
  frames: { rafFired: boolean; count: number; fps: number | null; p50Ms: number | null; p95Ms: number | null; maxMs: number | null };
  longFrameScripts: { invoker: string; source: string; count: number; totalMs: number; longestMs: number }[];
  /** The long animation frames of the window (over 50 ms), each broken down (seconds from the window's start). */
  longFrames: LongFrame[];
  goal: { noLongTasks: boolean; p95Ms: number; p95Met: boolean | null; pass: boolean };
  /** With --trace: the trace's file and its long tasks broken down. */
  trace?: { file: string; longTasks: TraceTask[] };
}

export async function measure(opts: Options): Promise<Report> {
  const { browser, page, url } = await openBenchPage(opts, PROBE_SCRIPT);
  await page.goto(url);
  const badge = page.locator('[data-testid=backend-badge]');
  await page.waitForFunction(
    () => {
      const el = document.querySelector('[data-testid=backend-badge]');
      return !!el && !!el.textContent && !/Choosing/.test(el.textContent);
    },
    undefined,
    { timeout: BACKEND_TIMEOUT_MS },
  );
  const backend = ((await badge.textContent()) ?? '').trim();
  const isolated = await page.evaluate(() => crossOriginIsolated);
  const backendDetails = await page.locator('[data-testid=backend-details] li').allTextContents();
  console.log(`backend: ${backend} (page ${isolated ? '' : 'not '}cross-origin isolated)`);

  // Every view live: the app may have a "live views" switch; make sure it is on.
  const live = page.locator('[data-testid=live]');
  if ((await live.count()) > 0 && !(await live.isChecked())) await live.check();

  // Keep the mouse off the chart: hovering it changes what the update readout shows.
  await page.locator('[data-testid=play]').click();
  await page.mouse.move(0, 0);
  if (opts.afterUpdates > 0) {
    console.log(`training until update ${opts.afterUpdates} …`);
    const warm0 = Date.now();
    let last = -1;
    while ((await updateIndex(page)) < opts.afterUpdates) {
      if (Date.now() - warm0 > WARMUP_TIMEOUT_MS) throw new Error(`update ${opts.afterUpdates} not reached within ${WARMUP_TIMEOUT_MS / 60_000} min`);
      if ((await page.locator('[data-testid=run-state]').textContent())?.trim() === 'finished')
        throw new Error(`the run finished before update ${opts.afterUpdates}: raise updates= in --hash`);
      const n = await updateIndex(page);
      if (Math.floor(n / 100) !== Math.floor(last / 100)) console.log(`  update ${n} after ${Math.round((Date.now() - warm0) / 1000)} s`);
      last = n;
      await page.waitForTimeout(1000);
    }
  }
  if (opts.trace) {
    const categories = [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'toplevel',
      'v8',
      'v8.execute',
      'disabled-by-default-v8.gc',
      'disabled-by-default-v8.cpu_profiler',
      'blink.user_timing',
    ];
    await browser.startTracing(page, { path: opts.trace, categories });
  }
  const start = await updateIndex(page);
  const t0 = await page.evaluate(() => performance.now());
  const wall0 = Date.now();
  console.log(`training for ${opts.seconds} s from update ${start} …`);
  // The window ends early if the run reaches its last update: the rate and the main thread's record
  // are then over the time it trained, not over idle seconds after it.
  let finishedEarly = false;
  while (Date.now() - wall0 < opts.seconds * 1000) {
    await page.waitForTimeout(Math.min(250, Math.max(0, opts.seconds * 1000 - (Date.now() - wall0))));
    if ((await page.locator('[data-testid=run-state]').textContent())?.trim() === 'finished') {
      finishedEarly = true;
      break;
    }
  }
  const end = await updateIndex(page);
  const t1 = await page.evaluate(() => performance.now());
  const measuredSeconds = (Date.now() - wall0) / 1000;
  let trace: Report['trace'];
  if (opts.trace) {
    const buffer = await browser.stopTracing();
    const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    trace = { file: opts.trace, longTasks: traceLongTasks(events, LONG_TASK_MS) };
  }
  const pageReadout = {
    rate: (
      (await page
        .locator('[data-testid=update-rate]')
        .textContent()
        .catch(() => null)) ?? 'no readout'
    ).trim(),
    eta: (
      (await page
        .locator('[data-testid=update-eta]')
        .textContent()
        .catch(() => null)) ?? 'no readout'
    ).trim(),
  };
  // Pause, unless the run reached its last update meanwhile (then Train is disabled).
  if ((await page.locator('[data-testid=run-state]').textContent())?.trim() === 'running') await page.locator('[data-testid=play]').click();

  const probe = await page.evaluate(() => window.__benchUi!);

  const longTasks = probe.longTasks.filter((t) => t.start >= t0 && t.start < t1 && t.duration > LONG_TASK_MS);
  const stamps = probe.frames.filter((t) => t >= t0 && t <= t1);
  const intervals = stamps
    .slice(1)
    .map((t, i) => t - stamps[i])
    .sort((a, b) => a - b);
  const rafFired = intervals.length > 0;

  const byScript = new Map<string, { invoker: string; source: string; count: number; totalMs: number; longestMs: number }>();
  for (const s of probe.scripts.filter((x) => x.start >= t0 && x.start < t1 && x.frameDuration > LONG_TASK_MS)) {
    const key = `${s.invoker}|${s.source}`;
    const e = byScript.get(key) ?? { invoker: s.invoker, source: s.source, count: 0, totalMs: 0, longestMs: 0 };
    e.count++;
    e.totalMs += s.duration;
    e.longestMs = Math.max(e.longestMs, s.duration);
    byScript.set(key, e);
  }

  const p95 = rafFired ? percentile(intervals, 95) : null;
  const noLongTasks = longTasks.length === 0 && !probe.noLongTaskApi;
  const p95Met = p95 === null ? null : p95 <= GOAL_P95_MS;
  const completed = end - start;
  return {
    url,
    backend,
    backendDetails,
    crossOriginIsolated: isolated,
    afterUpdates: opts.afterUpdates,
    pageReadout,
    seconds: opts.seconds,
    measuredSeconds: r1(measuredSeconds),
    finishedEarly,
    updates: { start, end, completed, perSecond: Math.round((completed / measuredSeconds) * 100) / 100 },
    longTasks: {
      thresholdMs: LONG_TASK_MS,
      apiAvailable: !probe.noLongTaskApi,
      count: longTasks.length,
      totalMs: r1(longTasks.reduce((s, t) => s + t.duration, 0)),
      longestMs: r1(longTasks.reduce((m, t) => Math.max(m, t.duration), 0)),
      entries: longTasks.map((t) => ({ start: r1(t.start - t0), duration: r1(t.duration), attribution: t.attribution })),
    },
    frames: {
      rafFired,
      count: intervals.length,
      fps: rafFired ? r1(intervals.length / ((stamps[stamps.length - 1] - stamps[0]) / 1000)) : null,
      p50Ms: rafFired ? r1(percentile(intervals, 50)) : null,
      p95Ms: p95 === null ? null : r1(p95),
      maxMs: rafFired ? r1(intervals[intervals.length - 1]) : null,
    },
    longFrames: probe.longFrames
      .filter((f) => f.start >= t0 && f.start < t1)
      .map((f) => ({
        ...f,
        start: r1((f.start - t0) / 1000),
        duration: r1(f.duration),
        scriptMs: r1(f.scriptMs),
        renderMs: r1(f.renderMs),
        styleLayoutMs: r1(f.styleLayoutMs),
        scripts: f.scripts.map((s) => ({ ...s, duration: r1(s.duration) })),
      })),
    longFrameScripts: [...byScript.values()]
      .sort((a, b) => b.totalMs - a.totalMs)
      .slice(0, 8)
      .map((e) => ({ ...e, totalMs: r1(e.totalMs), longestMs: r1(e.longestMs) })),
    goal: { noLongTasks, p95Ms: GOAL_P95_MS, p95Met, pass: noLongTasks && p95Met === true },
    trace,
  };
}

export function print(r: Report): void {
  const mark = (ok: boolean | null) => (ok === null ? 'UNKNOWN' : ok ? 'PASS' : 'MISS');
  const lines = [
    '',
    '=== bench:ui — Swarm Playground while training ===',
    `url               ${r.url}`,
    `backend           ${r.backend} (page ${r.crossOriginIsolated ? '' : 'not '}cross-origin isolated)`,
    ...r.backendDetails.filter((l) => /^Threads:/.test(l)).map((l) => `                  ${l}`),
    `trained for       ${r.seconds} s (measured ${r.measuredSeconds} s)${r.afterUpdates ? `, after training to update ${r.afterUpdates}` : ''}${r.finishedEarly ? ' — the run reached its last update then; the window ended there' : ''}`,
    `updates           ${r.updates.completed} completed (readout ${r.updates.start} -> ${r.updates.end}), ${r.updates.perSecond} updates/s`,
    `page readout      ${r.pageReadout.rate} updates/s, time left ${r.pageReadout.eta}`,
    r.longTasks.apiAvailable
      ? `long tasks        ${r.longTasks.count} over ${r.longTasks.thresholdMs} ms (total ${r.longTasks.totalMs} ms, longest ${r.longTasks.longestMs} ms)`
      : `long tasks        Long Tasks API not available in this browser: not measured`,
    r.frames.rafFired
      ? `frame time        p50 ${r.frames.p50Ms} ms, p95 ${r.frames.p95Ms} ms, max ${r.frames.maxMs} ms (${r.frames.count} rAF intervals, ${r.frames.fps} fps)`
      : `frame time        requestAnimationFrame did not fire in headless Chromium during the run: no frame times measured`,
    `goal              no long tasks: ${mark(r.goal.noLongTasks)}; p95 frame time <= ${r.goal.p95Ms} ms: ${mark(r.goal.p95Met)}  => ${r.goal.pass ? 'PASS' : 'MISS'}`,
  ];
  if (r.longFrameScripts.length) {
    lines.push('', 'scripts in long animation frames (>50 ms), by total time:');
    for (const s of r.longFrameScripts)
      lines.push(`  ${String(s.totalMs).padStart(8)} ms total, ${String(s.count).padStart(4)}x, longest ${s.longestMs} ms  ${s.invoker}  [${s.source}]`);
  }
  if (r.longFrames.length) {
    lines.push('', 'long animation frames (>50 ms): scripts, then rendering (rAF callbacks, style, layout, paint):');
    for (const f of r.longFrames) {
      lines.push(`  at ${f.start} s: ${f.duration} ms; scripts ${f.scriptMs} ms, rendering ${f.renderMs} ms (style and layout ${f.styleLayoutMs} ms)`);
      for (const s of f.scripts) lines.push(`      ${String(s.duration).padStart(6)} ms  ${s.invoker}  [${s.source}]`);
    }
  }
  if (r.trace) {
    lines.push('', `trace             ${r.trace.file} (tracing slows the page: count long tasks in a run without --trace)`);
    if (!r.trace.longTasks.length) lines.push('                  no main-thread task over 50 ms in the trace');
    for (const t of r.trace.longTasks) {
      lines.push(`  at ${(t.startMs / 1000).toFixed(1)} s: ${r1(t.durationMs)} ms, ${t.cause}`);
      lines.push(`      ${t.parts.map((p) => `${p.part} ${r1(p.ms)} ms`).join(', ')}`);
      for (const f of t.functions) lines.push(`      ${String(r1(f.ms)).padStart(6)} ms  ${f.name}${f.where ? ` @ ${f.where}` : ''}`);
    }
  }
  console.log(lines.join('\n'));
}
