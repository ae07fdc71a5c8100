/** `bench:ui --learn`: the time to coordination in the page, and with --to-end the error of its time left. */
import { costsOf } from '../../../src/rl/config';
import {
  coordinationByUpdate,
  coordinationDefinition,
  COORDINATION,
  evaluationLine,
  firstShownCoordination,
  parseDuration,
  parseTalkSentence,
  secondsAtUpdate,
  timeLeftErrors,
  type CoordinationReading,
  type PageCoordination,
  type TimeLeftError,
  type TimeLeftReading,
} from '../uiLearn';
import { MARGIN, type Options } from './options';
import { hashConfig, openBenchPage, r1 } from './page';

/** --learn: seconds of training at which the time left is compared with the time really left. */
const TIME_LEFT_AT = [10, 30, 60];

// ---------------------------------------------------------------- --learn: time to coordination in the page

/**
 * Runs in the page before any of its scripts (--learn): every 50 ms it notes what the user sees
 * change: the Train button enabled, the backend badge settled, a first click on Train, the update
 * readout, the time left, the run state, the *What talk is worth* evaluation and the coordination
 * line beside it (each condition as shown) with the curve's coordination marker. Times are the
 * page's performance.now() (ms from navigation).
 */
const LEARN_PROBE_SCRIPT = `(() => {
  const p = { trainEnabled: null, backendReady: null, click: null, firstPoint: null, counts: [], etas: [], talks: [], coordination: [], state: '', finished: null };
  window.__benchLearn = p;
  let count = '', eta = '', talk = '', coord = '';
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
    const cl = q('coordination');
    const mk = q('coordination-marker');
    if (cl || mk) {
      const d = cl ? cl.dataset : {};
      const a = (v) => (v === undefined ? null : v);
      const r = {
        t, updates: a(d.updates), coordinatedUpdate: a(d.coordinatedUpdate), met: a(d.met), ret: a(d.ret), target: a(d.target),
        duplicateShare: a(d.duplicateShare), neededShare: a(d.neededShare),
        headline: cl ? ((cl.querySelector('[data-testid=coordination-headline]') || {}).textContent || '').trim() : '',
        rows: cl ? [...cl.querySelectorAll('li[data-testid^="coordination-"]')].map((li) => ({ key: li.dataset.testid.slice(13), met: a(li.dataset.met), shown: a(li.dataset.shown) })) : [],
        marker: mk ? a(mk.dataset.updates) : null,
      };
      const key = JSON.stringify({ ...r, t: 0 });
      if (key !== coord) { coord = key; p.coordination.push(r); }
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
  /** The work panel's coordination line and the curve's marker, whenever either changed. */
  coordination: CoordinationReading[];
  state: string;
  finished: number | null;
}

export interface LearnReport {
  url: string;
  backend: string;
  /** The badge's technical detail: why this backend, the threads, the timings. */
  backendDetails: string[];
  /** The page's scripts as it fetched them: ms from navigation to the request and to the last byte, and the size on the wire. */
  resources: { name: string; startMs: number; endMs: number; kB: number }[];
  crossOriginIsolated: boolean;
  config: { family: string; agents: number; seed: number; updates: number; tmaxStart: number; tmaxEnd: number };
  /** The definition of coordination the page applies (src/sim/coordination.ts), its constants and in words. */
  definition: typeof COORDINATION & { text: string };
  /** For reference: the scripted organisation's return at the final deadline on 16 evaluation tasks (as bench:learn) minus the margin; the page measures its own on each evaluation's tasks. */
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
  /**
   * The page's evaluations: seconds of training (from pressing Train) when shown, the update they
   * measured, the talking return, and the coordination line beside it (each condition as shown; null
   * when the probe saw none for that update).
   */
  evaluations: { shownAt: number; updates: number; ret: number; coordination: PageCoordination | null }[];
  /**
   * When the page first showed coordination (the work panel's line naming an update, or the curve's
   * marker): `seconds` is when the run showed that update, `shownAt` when the page showed coordination,
   * with the evaluation's figures as the page held them.
   */
  reached: {
    seconds: number | null;
    shownAt: number;
    updates: number;
    by: 'line' | 'marker';
    ret: number | null;
    duplicateShare: number | null;
    neededShare: number | null;
    shown: PageCoordination['shown'];
  } | null;
  best: number | null;
  /** Training seconds the benchmark watched, updates shown then, updates/s over them. */
  trainedSeconds: number;
  updates: number;
  updatesPerSecond: number;
  /** The run reached its last update; `endSeconds` is then (seconds of training). */
  finished: boolean;
  endSeconds: number | null;
  stoppedBy: 'coordinated' | 'finished' | 'max-seconds';
  /** With a finished run: the page's time left at 10, 30 and 60 s of training against the time really left. */
  timeLeft: TimeLeftError[] | null;
  timeLeftReadings: TimeLeftReading[];
  /** When the update readout changed: seconds of training, updates shown. */
  timeline: { t: number; count: number }[];
}

/**
 * --learn: opens the built app, presses Train as soon as it can be pressed, and watches what the page
 * shows until the page itself shows coordination (src/sim/coordination.ts): its own final-deadline
 * evaluation of the swarm (What talk is worth, on 8 fresh tasks at the final deadline, measured by the
 * worker every 10 updates or more) meets all three conditions, so the work panel's coordination line
 * names an update or the curve carries its marker; or until the run finishes (with --to-end, that is
 * what it waits for), or `maxSeconds` of training pass.
 */
export async function measureLearn(opts: Options): Promise<LearnReport> {
  const c = hashConfig(opts.hash);
  const { referenceReturns } = await import('../../../src/rl/compare');
  const scripted = (await referenceReturns(c.family, c.agents, c.tmaxEnd, 16, costsOf(c))).scripted;
  const target = scripted - MARGIN;
  const { page, url } = await openBenchPage(opts, LEARN_PROBE_SCRIPT);
  console.log(`coordination, as the page shows it: ${coordinationDefinition(c.tmaxEnd)}`);
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
      if (parsed && !out.some((e) => e.updates === parsed.updates)) out.push({ shownAt: sec(x.t), ...parsed, coordination: null });
    }
    const lines = coordinationByUpdate(probe.coordination);
    return out.map((e) => ({ ...e, coordination: lines.get(e.updates) ?? null }));
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
      console.log(`  ${now.toFixed(0).padStart(4)} s: update ${last}, time left ${p.etas.at(-1)?.text ?? '–'}${e ? `; ${evaluationLine(e)}` : ''}`);
    }
    if (p.finished !== null) {
      stoppedBy = 'finished';
      break;
    }
    if (!opts.toEnd && firstShownCoordination(p.coordination)) {
      stoppedBy = 'coordinated';
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
  const hit = firstShownCoordination(p.coordination);
  const hitLine = hit ? coordinationByUpdate(p.coordination).get(hit.updates) : undefined;
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
    definition: { ...COORDINATION, text: coordinationDefinition(c.tmaxEnd) },
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
    reached: hit
      ? {
          seconds: secondsAtUpdate(timeline, hit.updates),
          shownAt: sec(hit.t),
          updates: hit.updates,
          by: hit.by,
          ret: hitLine?.ret ?? null,
          duplicateShare: hitLine?.duplicateShare ?? null,
          neededShare: hitLine?.neededShare ?? null,
          shown: hitLine?.shown ?? {},
        }
      : null,
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

export function printLearn(r: LearnReport): void {
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
    `coordination      ${r.definition.text} (src/sim/coordination.ts)`,
    `reference         scripted organisation ${r.scripted.toFixed(3)} on 16 tasks at ${r.config.tmaxEnd} minutes - ${MARGIN} = ${r.target.toFixed(3)} (the page measures its own on each evaluation's 8 tasks)`,
    `evaluations       ${r.evaluations.length ? '' : 'none shown'}`,
    ...r.evaluations.map((e) => `  ${evaluationLine(e)}`),
    r.reached
      ? `coordinated       at update ${r.reached.updates} (the page's ${r.reached.by === 'line' ? 'work panel line' : 'curve marker'}): ${r.reached.seconds?.toFixed(1)} s of training (shown at ${r.reached.shownAt.toFixed(1)} s); return ${r.reached.shown.return?.text ?? '–'}, duplicates ${r.reached.shown.duplicates?.text ?? '–'} of useful work, ${r.reached.shown.needed?.text ?? '–'} of deliveries needed`
      : `coordinated       NEVER within ${r.stoppedBy === 'finished' ? "the run's updates" : `${r.trainedSeconds} s`}: best return ${r.best === null ? 'none' : r.best.toFixed(3)}`,
    `trained           ${r.trainedSeconds} s, ${r.updates} updates, ${r.updatesPerSecond} updates/s${r.finished ? ` (the run finished at ${r.endSeconds} s)` : ''}`,
  ];
  if (r.timeLeft)
    for (const e of r.timeLeft)
      lines.push(
        `time left at ${String(e.at).padStart(2)} s  ${e.error === null ? 'no reading' : `said ${e.text} (${e.shown} s), really ${e.actual!.toFixed(1)} s: error ${(100 * e.error).toFixed(0)}%`}`,
      );
  console.log(lines.join('\n'));
}
