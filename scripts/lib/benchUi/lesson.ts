/** `bench:ui --lesson`: each live lesson step opened at its link and timed until the page has shown what its text says. */
import { availableParallelism, loadavg } from 'node:os';
import type { Page } from '@playwright/test';
import { kebab } from '../cli';
import { CONFIG_KEYS, type Config } from '../../../src/rl/config';
import { LESSON_CONTENT } from '../../../src/core/lesson';
import type { LessonDrag } from '../../../src/core/lessonClaims';
import { formatTable } from '../table';
import { describeRun, neededUpdate, stepDrag, stepRun, type NeededUpdate } from '../uiLesson';
import type { Options } from './options';
import { currentFormat, harness, hashConfig, newBenchPage, r1, updateIndex, type BenchBrowser } from './page';

/** --lesson: how long the page may take to say when a drag took effect (its marker on the curve). */
const MARKER_TIMEOUT_S = 120;
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

export interface LessonReport {
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
  const { page, url } = await newBenchPage(browser, opts, LESSON_PROBE_SCRIPT, `${currentFormat(opts.hash)}&lesson=${n}`);
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
export async function measureLesson(opts: Options): Promise<LessonReport> {
  const machine = { cores: availableParallelism(), loadAverage: loadavg().map((x) => Math.round(x * 100) / 100) };
  const browser = await harness!.launch();
  console.log(`Chromium ${browser.version()}; each step opens in a fresh page, as its link opens it`);
  const steps: LessonStepReport[] = [];
  for (const n of opts.lesson!) steps.push(await measureLessonStep(opts, browser, n));
  return { machine, maxSeconds: opts.maxSeconds, steps };
}

export function printLesson(r: LessonReport): void {
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
