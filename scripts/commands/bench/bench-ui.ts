/**
 * UI responsiveness benchmark: `npm run bench:ui [-- --seconds 60] [--hash seed=1] [--threads auto]
 * [--after-updates 0] [--port 4191] [--no-build] [--json <file>] [--trace <file>]`;
 * `npm run bench:ui -- --soak MINUTES` runs the soak benchmark of scripts/commands/bench/soak-ui.ts instead;
 * `npm run bench:ui -- --learn [--to-end] [--max-seconds 300] [--json <file>]` measures the time to
 * coordination in the page instead (see measureLearn);
 * `npm run bench:ui -- --lesson [STEPS] [--max-seconds 1800] [--json <file>]` opens each live lesson
 * step (default: every step that trains or runs its update when opened) at its link and times it
 * until the page has shown what its text says (see measureLesson): the config it trains, the update
 * by which the page has shown everything its claims measure (scripts/lib/uiLesson.ts), the seconds
 * from opening the step until the update readout showed it, updates/s, and for a step whose claims
 * assume a slider dragged while it trains (step 4's deadline start), the drag made in the page when
 * the readout reaches that update and the update the page's curve marker says it took effect at.
 *
 * Builds the app, serves it with `vite preview` (cross-origin isolated, as the app is served) on
 * port 4191, opens it in headless Chromium and trains with every view live; with --after-updates it
 * first trains until the run has that many updates, so the views carry a long run. While it trains
 * for the measured seconds, the page records main-thread long tasks (the 'longtask'
 * PerformanceObserver, over 50 ms) and the intervals between requestAnimationFrame callbacks.
 * Prints the backend and its threads, the training throughput (measured here and as the page's own
 * updates/s and time-left readout shows it), the long tasks and the frame-time percentiles, and
 * checks them against the goal: no long tasks and a p95 frame time <= 20 ms. With --trace it also
 * records a Chromium performance trace of the window (open it in DevTools' Performance panel) and
 * breaks each long task down into script, garbage collection, style and layout, paint, and the
 * functions sampled most in it; tracing slows the page, so count long tasks without it.
 *
 * Headless Chromium may throttle or skip rAF; the script reports what it saw and says so when
 * no frames were recorded instead of inventing numbers. It exits 0 whether the goal is met or
 * not (it measures, it does not gate), 1 on errors (with --lesson: a step that failed) and 2 on a
 * bad command line (with --lesson: a step that does not train when opened).
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type { Page } from '@playwright/test';
import { intFlag, intListFlag, kebab, numberFlag, parseFlags, pathFlag, readCommandLine, UsageError } from '../../lib/cli';
import { requireOutput } from '../../lib/outputFolder';
import { PreviewHarness, runToExit } from '../../lib/previewHarness';
import { CONFIG_KEYS, configFromStrings, costsOf, SCHEMA, type Config } from '../../../src/rl/config';
import { LESSON_CONTENT } from '../../../src/core/lesson';
import type { LessonDrag } from '../../../src/core/lessonClaims';
import { formatTable } from '../../lib/table';
import { describeRun, liveSteps, neededUpdate, stepDrag, stepRun, type NeededUpdate } from '../../lib/uiLesson';
import { parseDuration, parseTalkSentence, secondsAtUpdate, timeLeftErrors, type TimeLeftError, type TimeLeftReading } from '../../lib/uiLearn';
import { longTasks as traceLongTasks, type TraceEvent, type TraceTask } from '../../lib/traceTasks';

const DEFAULT_PORT = 4191;
const DEFAULT_SECONDS = 60;
const DEFAULT_HASH = 'seed=1';
/** Tasks longer than this are long tasks (the Long Tasks API threshold). */
const LONG_TASK_MS = 50;
/** Goal from the issue: no long tasks while training, p95 frame time at most this. */
const GOAL_P95_MS = 20;
const BACKEND_TIMEOUT_MS = 120_000;
/** --learn: how far below the scripted organisation the swarm may stay and still count as coordinated (as bench:learn). */
const MARGIN = 0.02;
/** --learn: the default cap on seconds of training. */
const DEFAULT_MAX_SECONDS = 300;
/** --lesson: the default cap on seconds per step, from opening it. */
const DEFAULT_LESSON_MAX_SECONDS = 1800;
/** --lesson: how long the page may take to say when a drag took effect (its marker on the curve). */
const MARKER_TIMEOUT_S = 120;
/** --learn: seconds of training at which the time left is compared with the time really left. */
const TIME_LEFT_AT = [10, 30, 60];

/** Longest wait for --after-updates to be reached. */
const WARMUP_TIMEOUT_MS = 30 * 60_000;

const USAGE = `usage: npm run bench:ui -- [--seconds ${DEFAULT_SECONDS}] [--hash ${DEFAULT_HASH}] [--threads auto] [--after-updates 0] [--port ${DEFAULT_PORT}] [--no-build] [--json <file>]
       npm run bench:ui -- --learn [--to-end] [--max-seconds ${DEFAULT_MAX_SECONDS}] [--hash ${DEFAULT_HASH}] [--threads auto] [--port ${DEFAULT_PORT}] [--no-build] [--json <file>]
       npm run bench:ui -- --lesson [${liveSteps().join(',')}] [--max-seconds ${DEFAULT_LESSON_MAX_SECONDS}] [--hash ${DEFAULT_HASH}] [--threads auto] [--port ${DEFAULT_PORT}] [--no-build] [--json <file>]
  --seconds <n>   how long to train with every view live (default: ${DEFAULT_SECONDS})
  --hash <hash>   URL hash selecting the config (default: ${DEFAULT_HASH}: the default task family, 8 agents)
  --threads <n>   threads for the wasm backend, as the page's ?threads= setting (default: auto, the page's choice)
  --after-updates <n>  train until the run has n updates before measuring (default: 0); the config must allow that many
  --port <n>      port of the preview server (default: ${DEFAULT_PORT})
  --no-build      serve the existing dist/ instead of running \`npm run build\` first
  --json <file>   also write the numbers to <file> as JSON
  --trace <file>  record a Chromium performance trace of the window to <file> and break its long tasks down
  --learn         instead: open the page, press Train as soon as it can be pressed, and report the start-up times,
                  and the seconds of training until the page's own final-deadline evaluation of the swarm (What talk
                  is worth, talking) reaches the scripted organisation's return minus ${MARGIN} (the bench:learn target)
  --to-end        with --learn: go on training until the run's last update, and report the error of the page's time left
  --max-seconds <n>  with --learn: give up after n seconds of training (default: ${DEFAULT_MAX_SECONDS});
                  with --lesson: give up on a step n seconds after opening it (default: ${DEFAULT_LESSON_MAX_SECONDS})
  --lesson [steps]  instead: open each of these lesson steps (default: every live step that trains or steps when
                  opened: ${liveSteps().join(', ')}) as its link does, do what the step asks of the teacher (drag the slider its
                  claims assume, when the update readout reaches the update they drag it at), and report the
                  config it trains, the update by which the page has shown everything its claims measure, and the
                  seconds from opening the step until the page showed it
  --help          print this help`;

interface Options {
  seconds: number;
  hash: string;
  threads: string;
  afterUpdates: number;
  port: number;
  build: boolean;
  json?: string;
  trace?: string;
  learn: boolean;
  toEnd: boolean;
  maxSeconds: number;
  /** --lesson: the steps to time (1-based), or null without --lesson. */
  lesson: number[] | null;
}

/** `--lesson`'s text as the steps to time: "all", or a list of live steps (sorted, each once). */
function lessonSteps(text: string): number[] {
  const live = liveSteps();
  if (text === 'all') return live;
  const steps = [...new Set(intListFlag('lesson', text, 1, LESSON_CONTENT.length))].sort((a, b) => a - b);
  for (const n of steps) {
    const s = LESSON_CONTENT[n - 1];
    if (!live.includes(n)) {
      const what = s.setup.kind === 'pretrained' ? `replays the pretrained ${s.setup.family} run` : 'waits for the class to press Train';
      throw new UsageError(`--lesson: step ${n} ("${s.title}") ${what}, it does not train when opened; the steps that do are ${live.join(', ')}`);
    }
  }
  return steps;
}

function parseOptions(argv: string[]): Options | 'help' {
  // A bare `--lesson` (last, or before another flag) times every live step.
  const args = argv.map((a, i) => (a === '--lesson' && (i + 1 === argv.length || argv[i + 1].startsWith('--')) ? '--lesson=all' : a));
  const values = parseFlags(args, {
    seconds: { type: 'string', default: String(DEFAULT_SECONDS) },
    hash: { type: 'string', default: DEFAULT_HASH },
    threads: { type: 'string', default: 'auto' },
    'after-updates': { type: 'string', default: '0' },
    port: { type: 'string', default: String(DEFAULT_PORT) },
    'no-build': { type: 'boolean', default: false },
    json: { type: 'string' },
    trace: { type: 'string' },
    learn: { type: 'boolean', default: false },
    'to-end': { type: 'boolean', default: false },
    'max-seconds': { type: 'string' },
    lesson: { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (values.help) return 'help';
  const lesson = values.lesson === undefined ? null : lessonSteps(values.lesson);
  if (lesson) {
    if (values.learn) throw new UsageError('--lesson and --learn: choose one');
    if (values.trace !== undefined) throw new UsageError('--trace does not go with --lesson');
    if (values['after-updates'] !== '0') throw new UsageError('--after-updates does not go with --lesson (each step trains from its start)');
    if (values.seconds !== String(DEFAULT_SECONDS)) throw new UsageError('--seconds does not go with --lesson (use --max-seconds)');
  }
  if (!values.learn && values['to-end']) throw new UsageError('--to-end needs --learn');
  if (values.learn && values.trace !== undefined) throw new UsageError('--trace does not go with --learn');
  return {
    learn: values.learn,
    toEnd: values['to-end'],
    lesson,
    maxSeconds: numberFlag('max-seconds', values['max-seconds'] ?? String(lesson ? DEFAULT_LESSON_MAX_SECONDS : DEFAULT_MAX_SECONDS), {
      kind: 'float',
      min: 1,
      max: 86_400,
    }),
    seconds: numberFlag('seconds', values.seconds, { kind: 'float', min: 0.001, max: 86_400 }),
    hash: values.hash.replace(/^#/, ''),
    threads: values.threads === 'auto' ? 'auto' : String(intFlag('threads', values.threads, 1, 99)),
    afterUpdates: intFlag('after-updates', values['after-updates'], 0, 1_000_000),
    port: intFlag('port', values.port, 1024, 65535),
    build: !values['no-build'],
    json: values.json === undefined ? undefined : pathFlag('json', values.json),
    trace: values.trace === undefined ? undefined : pathFlag('trace', values.trace),
  };
}

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

/** The preview server and browser of this run (built once the port is known). */
let harness: PreviewHarness | undefined;

// ---------------------------------------------------------------- measurement

/** The update readout as a number: how many updates are done (it shows the latest, counting from 1), 0 before the first ('–'). */
async function updateIndex(page: Page): Promise<number> {
  const text = ((await page.locator('[data-testid=update-count]').textContent()) ?? '').trim();
  if (text === '' || text === '–' || text === '-') return 0;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`update count is not a number: "${text}"`);
  return n;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const r1 = (x: number) => Math.round(x * 10) / 10;

interface Report {
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

type BenchBrowser = Awaited<ReturnType<PreviewHarness['launch']>>;

/** A page in a fresh context of `browser` that reports its errors and runs `probe` before the app's own script, and the app's address for `hash`. */
async function newBenchPage(browser: BenchBrowser, opts: Options, probe: string, hash: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') console.error(`[console error] ${m.text()}`);
  });
  await page.addInitScript({ content: probe });
  const search = opts.threads === 'auto' ? '' : `?threads=${opts.threads}`;
  return { page, url: `${harness!.origin}/${search}#${hash}` };
}

/** A fresh browser with one bench page (newBenchPage) at `opts.hash`. */
async function openBenchPage(opts: Options, probe: string) {
  const browser = await harness!.launch();
  const { page, url } = await newBenchPage(browser, opts, probe, opts.hash);
  console.log(`opening ${url} (${browser.version()})`);
  return { browser, page, url };
}

async function measure(opts: Options): Promise<Report> {
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

function print(r: Report): void {
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

// ---------------------------------------------------------------- --learn: time to coordination in the page

/**
 * Runs in the page before any of its scripts (--learn): every 50 ms it notes what the user sees
 * change: the Train button enabled, the backend badge settled, a first click on Train, the update
 * readout, the time left, the run state and the *What talk is worth* evaluation. Times are the
 * page's performance.now() (ms from navigation).
 */
const LEARN_PROBE_SCRIPT = `(() => {
  const p = { trainEnabled: null, backendReady: null, click: null, firstPoint: null, counts: [], etas: [], talks: [], state: '', finished: null };
  window.__benchLearn = p;
  let count = '', eta = '', talk = '';
  const q = (id) => document.querySelector('[data-testid=' + id + ']');
  document.addEventListener('click', (e) => {
    if (p.click === null && e.target && e.target.closest && e.target.closest('[data-testid=play]')) p.click = performance.now();
  }, true);
  const check = () => {
    const t = performance.now();
    const play = q('play');
    if (p.trainEnabled === null && play && !play.disabled) p.trainEnabled = t;
    const badge = q('backend-badge');
    if (p.backendReady === null && badge && badge.textContent && !/Choosing/.test(badge.textContent)) p.backendReady = t;
    const c = (q('update-count') || {}).textContent || '';
    if (c !== count) {
      count = c;
      const n = Number(c);
      if (c.trim() !== '' && Number.isFinite(n)) {
        if (p.firstPoint === null) p.firstPoint = t;
        p.counts.push({ t, count: n });
      }
    }
    const e = (q('update-eta') || {}).textContent || '';
    if (e !== eta) { eta = e; p.etas.push({ t, text: e }); }
    const tv = q('talk-value');
    if (tv) {
      const text = tv.textContent || '';
      const key = (tv.dataset.ret || '') + '|' + (tv.dataset.updates || '') + '|' + text;
      if (key !== talk) { talk = key; p.talks.push({ t, ret: tv.dataset.ret === undefined ? null : Number(tv.dataset.ret), updates: tv.dataset.updates === undefined ? null : Number(tv.dataset.updates), text }); }
    }
    const s = ((q('run-state') || {}).textContent || '').trim();
    if (s !== p.state) { p.state = s; if (s === 'finished' && p.finished === null) p.finished = t; }
  };
  setInterval(check, 50);
})();`;

interface LearnProbe {
  trainEnabled: number | null;
  backendReady: number | null;
  click: number | null;
  firstPoint: number | null;
  counts: { t: number; count: number }[];
  etas: { t: number; text: string }[];
  talks: { t: number; ret: number | null; updates: number | null; text: string }[];
  state: string;
  finished: number | null;
}

interface LearnReport {
  url: string;
  backend: string;
  /** The badge's technical detail: why this backend, the threads, the timings. */
  backendDetails: string[];
  /** The page's scripts as it fetched them: ms from navigation to the request and to the last byte, and the size on the wire. */
  resources: { name: string; startMs: number; endMs: number; kB: number }[];
  crossOriginIsolated: boolean;
  config: { family: string; agents: number; seed: number; updates: number; tmaxStart: number; tmaxEnd: number };
  /** The scripted organisation's return at the final deadline on 16 evaluation tasks (as bench:learn), and the target. */
  scripted: number;
  target: number;
  /** Milliseconds from navigation: Train enabled, the backend chosen, Train pressed, the first curve point. */
  startup: {
    trainEnabledMs: number | null;
    backendReadyMs: number | null;
    clickMs: number | null;
    firstPointMs: number | null;
    firstPointAfterClickMs: number | null;
  };
  /** The page's evaluations: seconds of training (from pressing Train) when shown, the update they measured, the talking return. */
  evaluations: { shownAt: number; updates: number; ret: number }[];
  /** The first evaluation at or above the target: `seconds` is when the run showed its update, `shownAt` when the evaluation appeared. */
  reached: { seconds: number | null; shownAt: number; updates: number; ret: number } | null;
  best: number | null;
  /** Training seconds the benchmark watched, updates shown then, updates/s over them. */
  trainedSeconds: number;
  updates: number;
  updatesPerSecond: number;
  /** The run reached its last update; `endSeconds` is then (seconds of training). */
  finished: boolean;
  endSeconds: number | null;
  stoppedBy: 'target' | 'finished' | 'max-seconds';
  /** With a finished run: the page's time left at 10, 30 and 60 s of training against the time really left. */
  timeLeft: TimeLeftError[] | null;
  timeLeftReadings: TimeLeftReading[];
  /** When the update readout changed: seconds of training, updates shown. */
  timeline: { t: number; count: number }[];
}

/** The run's settings as the page reads them from `hash` (view keys and the backend ignored). */
function hashConfig(hash: string): Config {
  const values: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(hash.replaceAll('+', '%2B'))) if (Object.hasOwn(SCHEMA, k)) values[k] = v;
  return configFromStrings(values, 'clamp').config;
}

/**
 * --learn: opens the built app, presses Train as soon as it can be pressed, and watches what the page
 * shows until its own final-deadline evaluation of the swarm (What talk is worth: the talking return
 * on 8 fresh tasks at the final deadline, measured by the worker every 10 updates or more) reaches the
 * scripted organisation's return minus MARGIN, the run finishes (with --to-end, that is what it waits
 * for), or `maxSeconds` of training pass.
 */
async function measureLearn(opts: Options): Promise<LearnReport> {
  const c = hashConfig(opts.hash);
  const { referenceReturns } = await import('../../../src/rl/compare');
  const scripted = (await referenceReturns(c.family, c.agents, c.tmaxEnd, 16, costsOf(c))).scripted;
  const target = scripted - MARGIN;
  const { page, url } = await openBenchPage(opts, LEARN_PROBE_SCRIPT);
  console.log(
    `target: the scripted organisation's return at ${c.tmaxEnd} minutes on 16 evaluation tasks (${scripted.toFixed(3)}) - ${MARGIN} = ${target.toFixed(3)}`,
  );
  await page.goto(url, { waitUntil: 'commit' });
  // As a teacher would: press Train the moment it can be pressed.
  await page.locator('[data-testid=play]').click();
  await page.mouse.move(0, 0);
  const read = () => page.evaluate(() => (window as unknown as { __benchLearn: LearnProbe }).__benchLearn);
  let p = await read();
  for (let i = 0; p.click === null; i++) {
    if (i >= 200) throw new Error('the click on Train was not seen by the page within 10 s');
    await page.waitForTimeout(50);
    p = await read();
  }
  const click = p.click;
  const sec = (t: number) => (t - click) / 1000;
  const evaluationsOf = (probe: LearnProbe) => {
    const out: LearnReport['evaluations'] = [];
    for (const x of probe.talks) {
      const parsed = x.ret !== null && x.updates !== null ? { ret: x.ret, updates: x.updates } : parseTalkSentence(x.text);
      if (parsed && !out.some((e) => e.updates === parsed.updates)) out.push({ shownAt: sec(x.t), ...parsed });
    }
    return out;
  };
  let stoppedBy: LearnReport['stoppedBy'] = 'max-seconds';
  let lastLog = -1;
  for (;;) {
    await page.waitForTimeout(500);
    p = await read();
    const now = sec(await page.evaluate(() => performance.now()));
    const evals = evaluationsOf(p);
    const last = p.counts.at(-1)?.count ?? 0;
    if (Math.floor(now / 15) !== lastLog) {
      lastLog = Math.floor(now / 15);
      const e = evals.at(-1);
      console.log(
        `  ${now.toFixed(0).padStart(4)} s: update ${last}, time left ${p.etas.at(-1)?.text ?? '–'}${e ? `, evaluation ${e.ret.toFixed(3)} at update ${e.updates}` : ''}`,
      );
    }
    if (p.finished !== null) {
      stoppedBy = 'finished';
      break;
    }
    if (!opts.toEnd && evals.some((e) => e.ret >= target)) {
      stoppedBy = 'target';
      break;
    }
    if (now >= opts.maxSeconds) break;
  }
  const backend = ((await page.locator('[data-testid=backend-badge]').textContent()) ?? '').trim();
  const backendDetails = await page.locator('[data-testid=backend-details] li').allTextContents();
  const isolated = await page.evaluate(() => crossOriginIsolated);
  const resources = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => /\.(js|wasm|css)$/.test(e.name))
      .map((e) => ({
        name: e.name.replace(/^.*\//, ''),
        startMs: Math.round(e.startTime),
        endMs: Math.round(e.responseEnd),
        kB: Math.round(e.transferSize / 1024),
      })),
  );
  const stopAt = sec(await page.evaluate(() => performance.now()));
  if ((await page.locator('[data-testid=run-state]').textContent())?.trim() === 'running') await page.locator('[data-testid=play]').click();
  const timeline = p.counts.map((x) => ({ t: sec(x.t), count: x.count }));
  const evaluations = evaluationsOf(p);
  const hit = evaluations.find((e) => e.ret >= target);
  const endSeconds = p.finished === null ? null : sec(p.finished);
  const trainedSeconds = endSeconds ?? stopAt;
  const updates = timeline.at(-1)?.count ?? 0;
  const readings: TimeLeftReading[] = p.etas.filter((x) => x.t >= click).map((x) => ({ t: sec(x.t), text: x.text, seconds: parseDuration(x.text) }));
  const ms = (t: number | null) => (t === null ? null : Math.round(t));
  return {
    url,
    backend,
    backendDetails,
    resources,
    crossOriginIsolated: isolated,
    config: { family: c.family, agents: c.agents, seed: c.seed, updates: c.prior + c.updates, tmaxStart: c.tmaxStart, tmaxEnd: c.tmaxEnd },
    scripted,
    target,
    startup: {
      trainEnabledMs: ms(p.trainEnabled),
      backendReadyMs: ms(p.backendReady),
      clickMs: ms(p.click),
      firstPointMs: ms(p.firstPoint),
      firstPointAfterClickMs: p.firstPoint === null ? null : Math.round(p.firstPoint - click),
    },
    evaluations,
    reached: hit ? { seconds: secondsAtUpdate(timeline, hit.updates), shownAt: hit.shownAt, updates: hit.updates, ret: hit.ret } : null,
    best: evaluations.length ? Math.max(...evaluations.map((e) => e.ret)) : null,
    trainedSeconds: r1(trainedSeconds),
    updates,
    updatesPerSecond: Math.round((updates / trainedSeconds) * 100) / 100,
    finished: endSeconds !== null,
    endSeconds: endSeconds === null ? null : r1(endSeconds),
    stoppedBy,
    timeLeft: endSeconds === null ? null : timeLeftErrors(readings, endSeconds, TIME_LEFT_AT),
    timeLeftReadings: readings,
    timeline,
  };
}

function printLearn(r: LearnReport): void {
  const s = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(2)} s`);
  const lines = [
    '',
    '=== bench:ui --learn — time to coordination in the page ===',
    `url               ${r.url}`,
    `backend           ${r.backend} (page ${r.crossOriginIsolated ? '' : 'not '}cross-origin isolated)`,
    ...r.backendDetails.map((l) => `                  ${l}`),
    `scripts           ${r.resources.map((x) => `${x.name} ${x.startMs}-${x.endMs} ms`).join(', ')}`,
    `config            ${r.config.family}, ${r.config.agents} agents, seed ${r.config.seed}, ${r.config.updates} updates, deadline ${r.config.tmaxStart} -> ${r.config.tmaxEnd}`,
    `start-up          Train enabled ${s(r.startup.trainEnabledMs)}, backend chosen ${s(r.startup.backendReadyMs)}, Train pressed ${s(r.startup.clickMs)}, first curve point ${s(r.startup.firstPointMs)} after navigation (${s(r.startup.firstPointAfterClickMs)} after pressing Train)`,
    `target            ${r.target.toFixed(3)} (scripted organisation ${r.scripted.toFixed(3)} - ${MARGIN}, 16 tasks at ${r.config.tmaxEnd} minutes); the page evaluates on 8 fresh tasks`,
    `evaluations       ${r.evaluations.map((e) => `${e.ret.toFixed(3)}@${e.updates}`).join(', ') || 'none shown'}`,
    r.reached
      ? `reached           ${r.reached.ret.toFixed(3)} at update ${r.reached.updates}: ${r.reached.seconds?.toFixed(1)} s of training (shown at ${r.reached.shownAt.toFixed(1)} s)`
      : `reached           NEVER within ${r.stoppedBy === 'finished' ? "the run's updates" : `${r.trainedSeconds} s`}: best ${r.best === null ? 'none' : r.best.toFixed(3)}`,
    `trained           ${r.trainedSeconds} s, ${r.updates} updates, ${r.updatesPerSecond} updates/s${r.finished ? ` (the run finished at ${r.endSeconds} s)` : ''}`,
  ];
  if (r.timeLeft)
    for (const e of r.timeLeft)
      lines.push(
        `time left at ${String(e.at).padStart(2)} s  ${e.error === null ? 'no reading' : `said ${e.text} (${e.shown} s), really ${e.actual!.toFixed(1)} s: error ${(100 * e.error).toFixed(0)}%`}`,
      );
  console.log(lines.join('\n'));
}

// ---------------------------------------------------------------- --lesson: the live lesson steps in the page

/**
 * Runs in the page before any of its scripts (--lesson): every 50 ms it notes what the class sees
 * change: the step's title, the backend badge settled, the run state, the update readout, the Train
 * and Step buttons pressed, and the curve's markers (a setting changed while it trained). Times are
 * the page's performance.now() (ms from navigation).
 */
const LESSON_PROBE_SCRIPT = `(() => {
  const p = { title: null, titleText: '', backendReady: null, running: null, counts: [], states: [], presses: [], markers: [], finished: null };
  window.__benchLesson = p;
  let count = '', state = '';
  const q = (id) => document.querySelector('[data-testid=' + id + ']');
  document.addEventListener('click', (e) => {
    const b = e.target && e.target.closest && e.target.closest('[data-testid=play],[data-testid=step]');
    if (b) p.presses.push({ t: performance.now(), button: b.dataset.testid, text: (b.textContent || '').trim() });
  }, true);
  const check = () => {
    const t = performance.now();
    const title = ((q('lesson-title') || {}).textContent || '').trim();
    if (p.title === null && /^Step \\d+ of/.test(title)) { p.title = t; p.titleText = title; }
    const badge = q('backend-badge');
    if (p.backendReady === null && badge && badge.textContent && !/Choosing/.test(badge.textContent)) p.backendReady = t;
    const c = (q('update-count') || {}).textContent || '';
    if (c !== count) {
      count = c;
      const n = Number(c);
      if (c.trim() !== '' && Number.isFinite(n)) p.counts.push({ t, count: n });
    }
    const s = ((q('run-state') || {}).textContent || '').trim();
    if (s !== state) {
      state = s;
      p.states.push({ t, state: s });
      if (s === 'running' && p.running === null) p.running = t;
      if (s === 'finished' && p.finished === null) p.finished = t;
    }
    for (const m of document.querySelectorAll('[data-testid=curve-marker] title')) {
      const text = (m.textContent || '').trim();
      if (!p.markers.some((x) => x.text === text)) p.markers.push({ t, text });
    }
  };
  setInterval(check, 50);
})();`;

interface LessonProbe {
  title: number | null;
  titleText: string;
  backendReady: number | null;
  running: number | null;
  counts: { t: number; count: number }[];
  states: { t: number; state: string }[];
  presses: { t: number; button: string; text: string }[];
  markers: { t: number; text: string }[];
  finished: number | null;
}

/** A curve marker's tooltip ("update 251: deadline start 8 → 24") as the update it names and its label. */
function parseMarker(text: string): { update: number; label: string } | null {
  const m = /^update (\d+): (.*)$/.exec(text);
  return m ? { update: Number(m[1]), label: m[2] } : null;
}

interface LessonDragReport {
  /** What the step's claims assume: the change, made after update `at`, applies from update `at` + 1 (as lesson:check trains it). */
  at: number;
  patch: Record<string, unknown>;
  /** The slider dragged (its testid), how (a pointer drag; 'set' if the pointer could not land on the value and it was set at once), and where it ended. */
  slider: string | null;
  method: 'pointer' | 'set' | null;
  value: string | null;
  /** The update readout when the pointer went down and when it was released, and seconds from opening the step to the release. */
  readoutAtDrag: number | null;
  readoutAtRelease: number | null;
  draggedAt: number | null;
  /** The page's own word on it: the curve's marker, and the update it names (the first update trained with the change). */
  marker: string | null;
  tookEffectAt: number | null;
  /** Why the drag was not made, or what went wrong. */
  note: string | null;
}

interface LessonStepReport {
  step: number;
  id: string;
  title: string;
  url: string;
  backend: string;
  backendDetails: string[];
  crossOriginIsolated: boolean;
  /** The step's run: 'train' starts training by itself when the step opens, 'step' runs one update by itself. */
  run: 'train' | 'step';
  config: {
    summary: string;
    family: string;
    agents: number;
    seed: number;
    /** Updates the page runs of it (1 for a 'step' run), of the config's prior + updates. */
    updates: number;
    prior: number;
    configUpdates: number;
    tasksPerUpdate: number;
    groupSize: number;
    tmaxStart: number;
    tmaxEnd: number;
  };
  /** The page's settings (its URL hash, once the first update showed) against the derived config: the keys that differ (null: not read). */
  pageConfigDiffers: string[] | null;
  /** The update by which the page has shown everything the step's claims measure, and the claim that needs it. */
  needed: NeededUpdate;
  /** The buttons pressed in the page (Train, Step): none, for a step that trains by itself. */
  presses: { t: number; button: string }[];
  /** Seconds from navigation (opening the step's link): its title shown, the backend chosen, training started (run state 'running'), the first update shown. */
  startup: { titleS: number | null; backendReadyS: number | null; runningS: number | null; firstUpdateS: number | null };
  /** Seconds from opening the step until the page showed the needed update (and from the first press, if any); null: not within --max-seconds. */
  reachedS: number | null;
  reachedFromPressS: number | null;
  /** The last update shown and when; updates/s from the first update shown to the last. */
  lastUpdate: number;
  lastUpdateS: number | null;
  updatesPerSecond: number | null;
  finished: boolean;
  stoppedBy: 'needed' | 'finished' | 'max-seconds' | 'error';
  runState: string;
  drag: LessonDragReport | null;
  error: string | null;
  /** When the update readout changed: seconds from navigation, updates shown. */
  timeline: { t: number; count: number }[];
}

interface LessonReport {
  /** This machine: its cores and its load average (1, 5, 15 min) as the benchmark began (the numbers are this machine's, as loaded then). */
  machine: { cores: number; loadAverage: number[] };
  maxSeconds: number;
  steps: LessonStepReport[];
}

/**
 * Drags the slider `testId` to `value` as a teacher would: pointer down on its thumb, moved through
 * the values between to `value`, released. Returns how it went; if the pointer cannot land on `value` (the track's
 * geometry is not what it seems), the value is set at once as the browser does for a click on the track.
 */
async function dragSlider(page: Page, testId: string, value: number): Promise<{ method: 'pointer' | 'set'; value: string }> {
  const slider = page.getByTestId(testId);
  await slider.scrollIntoViewIfNeeded();
  const [min, max] = [Number(await slider.getAttribute('min')), Number(await slider.getAttribute('max'))];
  const from = Number(await slider.inputValue());
  const box = (await slider.boundingBox())!;
  const xAt = (v: number) => box.x + 8 + ((v - min) / (max - min)) * (box.width - 16);
  const y = box.y + box.height / 2;
  await page.mouse.move(xAt(from), y);
  await page.mouse.down();
  // Through every value between, as a hand drags (one call: the pointer events come without a round trip each).
  await page.mouse.move(xAt(value), y, { steps: Math.max(1, Math.abs(value - from)) });
  // Nudge the pointer a pixel at a time until the thumb shows the value.
  let x = xAt(value);
  for (let i = 0; i < 40; i++) {
    const shown = Number(await slider.inputValue());
    if (shown === value) break;
    x += shown < value ? 1 : -1;
    await page.mouse.move(x, y);
  }
  await page.mouse.up();
  await page.mouse.move(0, 0);
  if (Number(await slider.inputValue()) === value) return { method: 'pointer', value: await slider.inputValue() };
  await slider.evaluate((el, v) => {
    const input = el as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, String(value));
  return { method: 'set', value: await slider.inputValue() };
}

/**
 * --lesson, one step: opens the built app at the step's link in a fresh context (as a teacher opens
 * it: nothing from an earlier run), does what the step asks of the teacher (a drag its claims assume,
 * when the update readout reaches it), and watches the update readout until the page has shown the
 * update its claims need, the run finishes, or `maxSeconds` pass from opening it.
 */
async function measureLessonStep(opts: Options, browser: BenchBrowser, n: number): Promise<LessonStepReport> {
  const step = LESSON_CONTENT[n - 1];
  const seed = hashConfig(opts.hash).seed;
  const r = stepRun(step, seed);
  const needed = neededUpdate(step, seed);
  const asked: LessonDrag | null = stepDrag(step);
  const c = r.config;
  const { page, url } = await newBenchPage(browser, opts, LESSON_PROBE_SCRIPT, `${opts.hash ? `${opts.hash}&` : ''}lesson=${n}`);
  console.log(`\nstep ${n} (${step.title}): ${describeRun(r)}; needs update ${needed.update} ("${needed.says}")`);
  console.log(`opening ${url}`);
  const report: LessonStepReport = {
    step: n,
    id: step.id,
    title: step.title,
    url,
    backend: '',
    backendDetails: [],
    crossOriginIsolated: false,
    run: r.run,
    config: {
      summary: describeRun(r),
      family: c.family,
      agents: c.agents,
      seed: c.seed,
      updates: r.updates,
      prior: c.prior,
      configUpdates: c.updates,
      tasksPerUpdate: c.tasksPerUpdate,
      groupSize: c.groupSize,
      tmaxStart: c.tmaxStart,
      tmaxEnd: c.tmaxEnd,
    },
    pageConfigDiffers: null,
    needed,
    presses: [],
    startup: { titleS: null, backendReadyS: null, runningS: null, firstUpdateS: null },
    reachedS: null,
    reachedFromPressS: null,
    lastUpdate: 0,
    lastUpdateS: null,
    updatesPerSecond: null,
    finished: false,
    stoppedBy: 'error',
    runState: '',
    drag: asked
      ? {
          at: asked.at,
          patch: asked.patch,
          slider: null,
          method: null,
          value: null,
          readoutAtDrag: null,
          readoutAtRelease: null,
          draggedAt: null,
          marker: null,
          tookEffectAt: null,
          note: null,
        }
      : null,
    error: null,
    timeline: [],
  };
  const read = () => page.evaluate(() => (window as unknown as { __benchLesson: LessonProbe }).__benchLesson);
  const s = (t: number | null) => (t === null ? null : r1(t / 1000));
  let p: LessonProbe | undefined;
  try {
    await page.goto(url, { waitUntil: 'commit' });
    // The class watches; the mouse stays off the chart (hovering it changes what the update readout shows).
    await page.mouse.move(0, 0);
    const drag = report.drag;
    // The drag's slider, one per setting of the patch (the schedule editor's: tmaxStart -> tmax-start).
    const dragKeys = asked ? Object.keys(asked.patch) : [];
    let dragDone = !asked;
    let dragWall = 0;
    // The curve's markers before the drag: the page's word on the drag is the first one after it.
    let markersBefore = new Set<string>();
    let lastLog = -1;
    for (;;) {
      // Wake as soon as the readout reaches the update to act at (the drag) or to stop at.
      const target = dragDone ? needed.update : asked!.at;
      await page
        .waitForFunction((u) => Number((document.querySelector('[data-testid=update-count]')?.textContent ?? '').trim() || NaN) >= u, target, {
          polling: 25,
          timeout: 500,
        })
        .catch((e: Error) => {
          if (e.name !== 'TimeoutError') throw e;
        });
      p = await read();
      const now = (await page.evaluate(() => performance.now())) / 1000;
      const last = p.counts.at(-1)?.count ?? 0;
      if (report.pageConfigDiffers === null && p.counts.length) {
        const shown = hashConfig(new URL(page.url()).hash.slice(1));
        report.pageConfigDiffers = CONFIG_KEYS.filter((k) => shown[k] !== c[k]).map((k) => `${k}: page ${String(shown[k])}, step ${String(c[k])}`);
      }
      if (!dragDone && drag && last >= asked!.at) {
        dragDone = true;
        drag.readoutAtDrag = last;
        markersBefore = new Set(p.markers.map((m) => m.text));
        try {
          if (dragKeys.length !== 1) throw new Error(`the drag changes ${dragKeys.length} settings (${dragKeys.join(', ')}); one slider is dragged at a time`);
          const key = dragKeys[0];
          const testId = kebab(key);
          const value = asked!.patch[key as keyof Config];
          if (typeof value !== 'number') throw new Error(`${key} is not a number: no slider to drag`);
          if ((await page.getByTestId(testId).count()) === 0) throw new Error(`no slider [data-testid=${testId}] for ${key} on the page`);
          drag.slider = testId;
          const done = await dragSlider(page, testId, value);
          drag.method = done.method;
          drag.value = done.value;
          drag.draggedAt = s(await page.evaluate(() => performance.now()));
          drag.readoutAtRelease = await updateIndex(page);
          dragWall = Date.now();
          console.log(
            `  dragged ${testId} to ${done.value} (${done.method}) from update ${last} to ${drag.readoutAtRelease} on the readout, released ${drag.draggedAt} s after opening`,
          );
        } catch (err) {
          drag.note = `not dragged: ${(err as Error).message}`;
          console.log(`  ${drag.note}`);
        }
      }
      if (drag && drag.draggedAt !== null && drag.marker === null) {
        const seen = p.markers
          .filter((m) => !markersBefore.has(m.text))
          .map((m) => parseMarker(m.text))
          .find((m) => m !== null);
        if (seen) {
          drag.marker = `update ${seen.update}: ${seen.label}`;
          drag.tookEffectAt = seen.update;
        }
      }
      if (Math.floor(now / 15) !== lastLog) {
        lastLog = Math.floor(now / 15);
        console.log(`  ${now.toFixed(0).padStart(5)} s after opening: update ${last} of ${r.updates}, ${p.states.at(-1)?.state ?? 'no run state'}`);
      }
      const markerPending = drag !== null && drag.draggedAt !== null && drag.marker === null && (Date.now() - dragWall) / 1000 < MARKER_TIMEOUT_S;
      if (p.finished !== null && !markerPending) {
        report.stoppedBy = last >= needed.update ? 'needed' : 'finished';
        break;
      }
      if (dragDone && last >= needed.update && !markerPending) {
        report.stoppedBy = 'needed';
        break;
      }
      if (now >= opts.maxSeconds) {
        report.stoppedBy = 'max-seconds';
        break;
      }
    }
    if (drag && drag.draggedAt !== null && drag.marker === null) drag.note = `the page showed no marker for the drag within ${MARKER_TIMEOUT_S} s`;
    if (drag && !drag.draggedAt && !drag.note) drag.note = `not dragged: the readout did not reach update ${drag.at} within ${opts.maxSeconds} s`;
    report.backend = ((await page.locator('[data-testid=backend-badge]').textContent()) ?? '').trim();
    report.backendDetails = await page.locator('[data-testid=backend-details] li').allTextContents();
    report.crossOriginIsolated = await page.evaluate(() => crossOriginIsolated);
    report.runState = ((await page.locator('[data-testid=run-state]').textContent()) ?? '').trim();
    // What the page showed, before the benchmark's own click below (that is no teacher's press).
    p = await read();
    // Pause a run still training, so the next step's page has the machine to itself.
    if (report.runState === 'running') await page.locator('[data-testid=play]').click();
  } catch (err) {
    report.error = (err as Error).stack ?? String(err);
    console.error(`  step ${n} failed: ${report.error}`);
    p = (await read().catch(() => undefined)) ?? p;
  } finally {
    await page
      .context()
      .close()
      .catch(() => undefined);
  }
  if (p) {
    const timeline = p.counts.map((x) => ({ t: r1(x.t / 1000), count: x.count }));
    const hit = p.counts.find((x) => x.count >= needed.update);
    const press = p.presses[0]?.t ?? null;
    const first = p.counts[0];
    const last = p.counts.at(-1);
    report.timeline = timeline;
    report.presses = p.presses.map((x) => ({ t: r1(x.t / 1000), button: x.button }));
    report.startup = { titleS: s(p.title), backendReadyS: s(p.backendReady), runningS: s(p.running), firstUpdateS: s(first?.t ?? null) };
    report.reachedS = hit ? r1(hit.t / 1000) : null;
    report.reachedFromPressS = hit && press !== null ? r1((hit.t - press) / 1000) : null;
    report.lastUpdate = last?.count ?? 0;
    report.lastUpdateS = s(last?.t ?? null);
    report.updatesPerSecond = first && last && last.t > first.t ? Math.round(((last.count - first.count) / ((last.t - first.t) / 1000)) * 100) / 100 : null;
    report.finished = p.finished !== null;
  }
  return report;
}

/** --lesson: times each of the steps in a fresh page of its own, one after the other. */
async function measureLesson(opts: Options): Promise<LessonReport> {
  const machine = { cores: availableParallelism(), loadAverage: loadavg().map((x) => Math.round(x * 100) / 100) };
  const browser = await harness!.launch();
  console.log(`Chromium ${browser.version()}; each step opens in a fresh page, as its link opens it`);
  const steps: LessonStepReport[] = [];
  for (const n of opts.lesson!) steps.push(await measureLessonStep(opts, browser, n));
  return { machine, maxSeconds: opts.maxSeconds, steps };
}

function printLesson(r: LessonReport): void {
  const sec = (x: number | null) => (x === null ? '–' : `${x.toFixed(1)} s`);
  const rows = r.steps.map((x) => {
    const reached = x.reachedS !== null ? sec(x.reachedS) : x.error ? 'error' : `not in ${r.maxSeconds} s (update ${x.lastUpdate} at ${sec(x.lastUpdateS)})`;
    const drag = !x.drag
      ? '–'
      : x.drag.tookEffectAt !== null
        ? `at ${x.drag.readoutAtDrag}: took effect at update ${x.drag.tookEffectAt} (claims: ${x.drag.at + 1})`
        : (x.drag.note ?? 'not dragged');
    return [
      `${x.step} ${x.id}`,
      x.run === 'train' ? 'trains at once' : 'one update',
      x.config.summary,
      String(x.needed.update),
      reached,
      x.presses.length ? sec(x.reachedFromPressS) : 'no press',
      x.updatesPerSecond === null ? '–' : String(x.updatesPerSecond),
      drag,
    ];
  });
  const header = ['step', 'on opening', 'config it trains', 'needs update', 'seconds to it', 'from press', 'updates/s', 'drag'];
  const lines = [
    '',
    '=== bench:ui --lesson — the live lesson steps in the page ===',
    `machine           ${r.machine.cores} cores, load average ${r.machine.loadAverage.join(', ')} as it began (the seconds are this machine's, as loaded then)`,
    '',
    formatTable(header, rows, [0, 1, 2, 7]).replace(/ +$/gm, ''),
    '',
    '"needs update": the largest window end over the step\'s claims (an evaluation after training: its last update); "seconds to it": from opening',
    "the step's link until the page's update readout showed it; updates/s from the first update shown to the last.",
  ];
  for (const x of r.steps) {
    lines.push(
      '',
      `step ${x.step}: ${x.title}`,
      `  url             ${x.url}`,
      `  backend         ${x.backend || '–'} (page ${x.crossOriginIsolated ? '' : 'not '}cross-origin isolated)`,
      ...x.backendDetails.filter((l) => /^Threads:/.test(l)).map((l) => `                  ${l}`),
      `  config          ${x.config.summary}, seed ${x.config.seed}; ${x.pageConfigDiffers === null ? "the page's settings not read" : x.pageConfigDiffers.length ? `the page differs: ${x.pageConfigDiffers.join('; ')}` : "the page's settings (its link) agree"}`,
      `  needs           update ${x.needed.update}, for "${x.needed.says}"`,
      `  opened          title ${sec(x.startup.titleS)}, backend chosen ${sec(x.startup.backendReadyS)}, training ${sec(x.startup.runningS)}, first update ${sec(x.startup.firstUpdateS)} after opening the link`,
      `  pressed         ${x.presses.length ? x.presses.map((b) => `${b.button} at ${sec(b.t)}`).join(', ') : `nothing: the step ${x.run === 'train' ? 'trains' : 'runs its update'} by itself when opened`}`,
      `  reached         ${x.reachedS !== null ? `update ${x.needed.update} shown ${sec(x.reachedS)} after opening` : `NOT reached: stopped by ${x.stoppedBy} at update ${x.lastUpdate}`}`,
      `  trained         update ${x.lastUpdate} of ${x.config.updates} shown at ${sec(x.lastUpdateS)}, ${x.updatesPerSecond ?? '–'} updates/s; run state ${x.runState || '–'}${x.finished ? ' (the run finished)' : ''}`,
    );
    if (x.drag)
      lines.push(
        `  drag            claims: ${JSON.stringify(x.drag.patch)} after update ${x.drag.at} (from update ${x.drag.at + 1}); ` +
          (x.drag.draggedAt !== null
            ? `dragged ${x.drag.slider} to ${x.drag.value} (${x.drag.method}) from update ${x.drag.readoutAtDrag} to ${x.drag.readoutAtRelease} on the readout, released ${sec(x.drag.draggedAt)} after opening; ` +
              (x.drag.marker ? `the page's marker: "${x.drag.marker}"` : (x.drag.note ?? ''))
            : (x.drag.note ?? '')),
      );
    if (x.error) lines.push(`  ERROR           ${x.error.split('\n')[0]}`);
  }
  console.log(lines.join('\n'));
}

async function main(): Promise<number> {
  const opts = readCommandLine('bench:ui', USAGE, parseOptions);
  if (opts.json) requireOutput('bench:ui', 'json', opts.json, 'file');
  if (opts.trace) requireOutput('bench:ui', 'trace', opts.trace, 'file');
  harness = new PreviewHarness(opts.port);
  harness.stopOnSignals();
  try {
    await harness.prepare(opts.build);
    await harness.serve();
    const report = opts.lesson ? await measureLesson(opts) : opts.learn ? await measureLearn(opts) : await measure(opts);
    if (opts.lesson) printLesson(report as LessonReport);
    else if (opts.learn) printLearn(report as LearnReport);
    else print(report as Report);
    if (opts.json) {
      writeFileSync(opts.json, JSON.stringify(report, null, 2) + '\n');
      console.log(`\nwrote ${opts.json}`);
    }
    return opts.lesson && (report as LessonReport).steps.some((x) => x.error) ? 1 : 0;
  } catch (err) {
    console.error(`bench:ui failed: ${(err as Error).stack ?? err}`);
    return 1;
  } finally {
    await harness.close();
  }
}

// `--soak MINUTES`: the soak benchmark (scripts/commands/bench/soak-ui.ts) instead of this one.
if (process.argv.slice(2).some((a) => a === '--soak' || a.startsWith('--soak='))) {
  await import('./soak-ui');
} else {
  runToExit(main, () => harness);
}
