/**
 * Soak benchmark: `npm run bench:ui -- --soak MINUTES [--hash <hash>] [--port 4192] [--no-build] [--json <file>] [--profile <file>]`
 * (or `tsx scripts/commands/bench/soak-ui.ts` with the same flags).
 *
 * Builds the app, serves it with `vite preview` on port 4192 (or --port), opens it in headless Chromium and
 * trains for MINUTES with every view live. Every WINDOW_S seconds it samples: the update count, the
 * page's JS heap after a forced garbage collection (CDP), DOM nodes and JS event listeners (CDP
 * Memory.getDOMCounters), the worker's live tensors (tf.memory(), through the page's test hook),
 * the origin's storage use (navigator.storage.estimate: the autosaved run), the rAF frame-time
 * percentiles and the long tasks (over 50 ms) of the window. It prints one line per window and
 * compares the window where the run passed update 100 with the last one (at 1,000 updates or
 * more, if the run got that far): the goal is every figure within 10%.
 *
 * With --profile it also records a CPU profile of the page's main thread in every window (V8's
 * sampling profiler through CDP; the profiler stops while the window's figures are read) and prints
 * the functions with the most self time in the first and the last window, per update trained in the
 * window: which work grows with the run. It writes the last window's profile to <file> and the
 * first's beside it (<name>.first.cpuprofile); Chrome DevTools opens both. The build it makes is not
 * minified, so the functions keep their names (the profiler's own cost is in every window's figures).
 *
 * It measures, it does not gate: exit 0 whatever the figures, 1 on errors, 2 on a bad command line.
 */
import { writeFileSync } from 'node:fs';
import type { CDPSession, Page } from '@playwright/test';
import { intFlag, numberFlag, parseFlags, pathFlag, readCommandLine, UsageError } from '../../lib/cli';
import { requireOutput } from '../../lib/outputFolder';
import { isBusy, selfTimes, type CpuProfile } from '../../lib/cpuProfile';
import { PreviewHarness, runToExit } from '../../lib/previewHarness';

const DEFAULT_PORT = 4192;
/** A small run, so that 1,000 updates come within minutes: 3 agents, 1 task x 2 rollouts, coupled tasks, wasm. */
const DEFAULT_HASH = 'family=coupled&tmaxStart=8&tmaxEnd=24&agents=3&tasksPerUpdate=1&groupSize=2&updates=100000&seed=1&backend=wasm';
const WINDOW_S = 30;
const LONG_TASK_MS = 50;
/** The issue's bound: figures after 1,000 updates within this share of their value after 100. */
const TOLERANCE = 0.1;
/** Functions listed per profiled window. */
const PROFILE_TOP = 15;
/** The profiler's sampling interval (µs). */
const PROFILE_INTERVAL_US = 500;

const USAGE = `usage: npm run bench:ui -- --soak MINUTES [--hash <hash>] [--port ${DEFAULT_PORT}] [--no-build] [--json <file>] [--profile <file>]
  --soak <minutes>  how long to train with every view live
  --hash <hash>     URL hash selecting the config (default: a small run on wasm, ${DEFAULT_HASH})
  --port <n>        port of the preview server (default: ${DEFAULT_PORT})
  --no-build        serve the existing dist/ instead of running \`npm run build\` first
  --json <file>     also write the samples to <file> as JSON
  --profile <file>  profile the page's main thread in every window; print the top self times of the
                    first and last windows per update; write the last window's profile to <file> and
                    the first's to <name>.first.cpuprofile (builds without minifying, for the names)
  --help            print this help`;

interface Options {
  minutes: number;
  hash: string;
  port: number;
  build: boolean;
  json?: string;
  profile?: string;
}

function parseOptions(argv: string[]): Options | 'help' {
  const values = parseFlags(argv, {
    soak: { type: 'string' },
    hash: { type: 'string', default: DEFAULT_HASH },
    port: { type: 'string', default: String(DEFAULT_PORT) },
    'no-build': { type: 'boolean', default: false },
    json: { type: 'string' },
    profile: { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (values.help) return 'help';
  if (values.soak === undefined) throw new UsageError('--soak needs a number of minutes, from 0.01 to 240');
  return {
    minutes: numberFlag('soak', values.soak, { kind: 'float', min: 0.01, max: 240 }),
    hash: values.hash.replace(/^#/, ''),
    port: intFlag('port', values.port, 1024, 65535),
    build: !values['no-build'],
    json: values.json === undefined ? undefined : pathFlag('json', values.json),
    profile: values.profile === undefined ? undefined : pathFlag('profile', values.profile),
  };
}

/** Records long tasks and rAF timestamps from before the app's scripts run (plain text: see scripts/lib/benchUi/frames.ts). */
const PROBE_SCRIPT = `(() => {
  const probe = { longTasks: [], frames: [] };
  window.__soak = probe;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (err) {
    probe.noLongTaskApi = true;
  }
  const tick = (t) => {
    probe.frames.push(t);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

/** The preview server and browser of this run (built once the port is known). */
let harness: PreviewHarness | undefined;

/** One window of the soak. */
export interface Sample {
  /** Seconds since training started, at the end of the window. */
  t: number;
  updates: number;
  heapMB: number;
  domNodes: number;
  listeners: number;
  tensors: number | null;
  storageMB: number | null;
  frameP50Ms: number | null;
  frameP95Ms: number | null;
  longTasksPerMin: number;
}

const r1 = (x: number) => Math.round(x * 10) / 10;

function percentile(sorted: readonly number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function updateCount(page: Page): Promise<number> {
  const n = Number(((await page.locator('[data-testid=update-count]').textContent()) ?? '').trim());
  return Number.isFinite(n) ? n : 0;
}

async function sample(page: Page, cdp: CDPSession, t0: number, from: number, seconds: number): Promise<Sample> {
  const to = await page.evaluate(() => performance.now());
  const probe = await page.evaluate(
    ([a, b, limit]) => {
      const p = (window as unknown as { __soak: { longTasks: [number, number][]; frames: number[] } }).__soak;
      const frames = p.frames.filter((f) => f >= a && f < b);
      const longTasks = p.longTasks.filter(([s, d]) => s >= a && s < b && d > limit).length;
      // Drop what was read so the arrays do not grow with the soak.
      p.frames = p.frames.filter((f) => f >= b);
      p.longTasks = p.longTasks.filter(([s]) => s >= b);
      return { frames, longTasks };
    },
    [from, to, LONG_TASK_MS],
  );
  const intervals = probe.frames
    .slice(1)
    .map((f, i) => f - probe.frames[i])
    .sort((x, y) => x - y);
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const dom = (await cdp.send('Memory.getDOMCounters')) as { nodes: number; jsEventListeners: number };
  const worker = await page.evaluate(
    () => (globalThis as unknown as { __swarmFaults?: { memory(): Promise<{ tensors: number } | null> } }).__swarmFaults?.memory() ?? null,
  );
  const storage = await page.evaluate(async () => (navigator.storage?.estimate ? ((await navigator.storage.estimate()).usage ?? null) : null));
  return {
    t: r1((to - t0) / 1000),
    updates: await updateCount(page),
    heapMB: r1(heap.usedSize / 1024 / 1024),
    domNodes: dom.nodes,
    listeners: dom.jsEventListeners,
    tensors: worker?.tensors ?? null,
    storageMB: storage === null ? null : Math.round((storage / 1024 / 1024) * 100) / 100,
    frameP50Ms: intervals.length ? r1(percentile(intervals, 50)!) : null,
    frameP95Ms: intervals.length ? r1(percentile(intervals, 95)!) : null,
    longTasksPerMin: r1((probe.longTasks * 60) / seconds),
  };
}

/** A window's CPU profile, with the updates trained in it. */
interface ProfiledWindow {
  sample: Sample;
  updates: number;
  profile: CpuProfile;
}

function printProfile(label: string, w: ProfiledWindow): void {
  const times = selfTimes(w.profile);
  const wallMs = (w.profile.endTime - w.profile.startTime) / 1000;
  const busyMs = times.filter(isBusy).reduce((a, e) => a + e.selfMs, 0);
  const per = (ms: number) => (w.updates > 0 ? (ms / w.updates).toFixed(2) : '-');
  console.log(
    `\n${label} window (ending at ${w.sample.t} s, ${w.updates} updates in it, ${w.sample.updates} in all): main thread busy ${Math.round(busyMs)} of ${Math.round(wallMs)} ms (${Math.round((busyMs / wallMs) * 100)}%), ${per(busyMs)} ms per update`,
  );
  console.log('   self ms  ms/update  function (where)');
  for (const e of times.filter(isBusy).slice(0, PROFILE_TOP))
    console.log(`${e.selfMs.toFixed(0).padStart(10)}  ${per(e.selfMs).padStart(9)}  ${e.name}${e.where ? ` (${e.where})` : ''}`);
}

function siblingPath(file: string, tag: string): string {
  return /\.cpuprofile$/.test(file) ? file.replace(/\.cpuprofile$/, `.${tag}.cpuprofile`) : `${file}.${tag}.cpuprofile`;
}

async function soak(opts: Options, h: PreviewHarness): Promise<{ samples: Sample[]; profiles: ProfiledWindow[] }> {
  const browser = await h.launch();
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
  page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
  await page.addInitScript({ content: PROBE_SCRIPT });
  const cdp = await page.context().newCDPSession(page);
  const url = `${h.origin}/#${opts.hash}`;
  console.log(`opening ${url}`);
  await page.goto(url);
  await page.waitForFunction(() => !/Choosing/.test(document.querySelector('[data-testid=backend-badge]')?.textContent ?? 'Choosing'), undefined, {
    timeout: 120_000,
  });
  console.log(`backend: ${(await page.locator('[data-testid=backend-badge]').textContent())?.trim()}`);
  await page.locator('[data-testid=play]').click();
  await page.mouse.move(0, 0);
  const t0 = await page.evaluate(() => performance.now());
  const samples: Sample[] = [];
  const profiles: ProfiledWindow[] = [];
  if (opts.profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_US });
    await cdp.send('Profiler.start');
  }
  let from = t0;
  const end = Date.now() + opts.minutes * 60_000;
  console.log('     t s  updates  heap MB  DOM nodes  listeners  tensors  storage MB  frame p50/p95 ms  long tasks/min');
  while (Date.now() < end) {
    await page.waitForTimeout(Math.min(WINDOW_S * 1000, Math.max(1000, end - Date.now())));
    const to = await page.evaluate(() => performance.now());
    const profile = opts.profile ? ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile : null;
    const s = await sample(page, cdp, t0, from, (to - from) / 1000);
    from = to;
    if (profile) {
      profiles.push({ sample: s, updates: s.updates - (samples.at(-1)?.updates ?? 0), profile });
      await cdp.send('Profiler.start');
    }
    samples.push(s);
    console.log(
      `${String(s.t).padStart(8)}  ${String(s.updates).padStart(7)}  ${String(s.heapMB).padStart(7)}  ${String(s.domNodes).padStart(9)}  ${String(s.listeners).padStart(9)}  ${String(s.tensors ?? '-').padStart(7)}  ${String(s.storageMB ?? '-').padStart(10)}  ${`${s.frameP50Ms ?? '-'}/${s.frameP95Ms ?? '-'}`.padStart(16)}  ${String(s.longTasksPerMin).padStart(14)}`,
    );
  }
  // A page too busy to take the click still has its figures reported (the busy page is the finding).
  await page
    .locator('[data-testid=play]')
    .click()
    .catch((e: unknown) => console.error(`the page did not take the Pause click: ${(e as Error).message.split('\n')[0]}`));
  return { samples, profiles };
}

/** The window where the run first reached `n` updates (the first one at or past it). */
function windowAt(samples: readonly Sample[], n: number): Sample | undefined {
  return samples.find((s) => s.updates >= n);
}

function compare(samples: readonly Sample[]): void {
  const a = windowAt(samples, 100);
  const b = windowAt(samples, 1000) ? samples[samples.length - 1] : undefined;
  if (!a || !b) {
    console.log(`\nthe run reached ${samples.at(-1)?.updates ?? 0} updates: too few to compare update 100 with update 1,000 (soak longer)`);
    return;
  }
  console.log(
    `\nafter ~100 updates (window ending at ${a.t} s, ${a.updates} updates) vs the last window (${b.t} s, ${b.updates} updates), goal within ${TOLERANCE * 100}%:`,
  );
  const keys: (keyof Sample)[] = ['heapMB', 'tensors', 'domNodes', 'listeners', 'frameP50Ms', 'frameP95Ms', 'longTasksPerMin', 'storageMB'];
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (typeof x !== 'number' || typeof y !== 'number') {
      console.log(`  ${k.padEnd(16)} not measured`);
      continue;
    }
    const change = x === 0 ? (y === 0 ? 0 : Infinity) : (y - x) / x;
    const ok = Math.abs(change) <= TOLERANCE || (k === 'longTasksPerMin' && y <= x);
    console.log(
      `  ${k.padEnd(16)} ${String(x).padStart(8)} -> ${String(y).padStart(8)}  (${change === Infinity ? 'from 0' : `${change >= 0 ? '+' : ''}${Math.round(change * 1000) / 10}%`})  ${k === 'storageMB' ? "(bounded by the recorder's thinning, not held to 10%)" : ok ? 'within' : 'OUTSIDE'}`,
    );
  }
}

async function main(): Promise<number> {
  const opts = readCommandLine('bench:ui --soak', USAGE, parseOptions);
  if (opts.json) requireOutput('bench:ui --soak', 'json', opts.json, 'file');
  if (opts.profile) requireOutput('bench:ui --soak', 'profile', opts.profile, 'file');
  const h = new PreviewHarness(opts.port);
  harness = h;
  h.stopOnSignals();
  try {
    await h.prepare(opts.build, opts.profile ? ['--minify', 'false'] : []);
    await h.serve();
    const { samples, profiles } = await soak(opts, h);
    compare(samples);
    if (opts.profile && profiles.length) {
      const first = profiles[0];
      const last = profiles[profiles.length - 1];
      printProfile('first', first);
      if (last !== first) printProfile('last', last);
      writeFileSync(opts.profile, JSON.stringify(last.profile));
      if (last !== first) writeFileSync(siblingPath(opts.profile, 'first'), JSON.stringify(first.profile));
      console.log(`\nwrote ${opts.profile}${last !== first ? ` and ${siblingPath(opts.profile, 'first')}` : ''}`);
    }
    if (opts.json) {
      writeFileSync(opts.json, JSON.stringify({ hash: opts.hash, minutes: opts.minutes, windowSeconds: WINDOW_S, samples }, null, 2) + '\n');
      console.log(`\nwrote ${opts.json}`);
    }
    return 0;
  } catch (err) {
    console.error(`soak failed: ${(err as Error).stack ?? err}`);
    return 1;
  } finally {
    await h.close();
  }
}

runToExit(main, () => harness);
