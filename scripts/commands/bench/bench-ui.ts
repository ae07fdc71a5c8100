/**
 * UI responsiveness benchmark: `npm run bench:ui [-- --seconds 60] [--hash v=4&seed=1] [--threads auto]
 * [--after-updates 0] [--port 4191] [--no-build] [--json <file>] [--trace <file>]`;
 * `npm run bench:ui -- --soak MINUTES` runs the soak benchmark of scripts/commands/bench/soak-ui.ts instead;
 * `npm run bench:ui -- --learn [--to-end] [--max-seconds 300] [--seeds 1,2,3] [--json <file>]` measures the
 * time to coordination in the page instead (see measureLearn), with --seeds once per training seed and
 * the median over them;
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
import { readCommandLine } from '../../lib/cli';
import { requireOutput } from '../../lib/outputFolder';
import { PreviewHarness, runToExit } from '../../lib/previewHarness';
import { parseOptions, USAGE, withSeed, type Options } from '../../lib/benchUi/options';
import { describeSeedTimes, formatSeedTimes, summariseSeedTimes } from '../../lib/bench/seedTimes';
import { useHarness } from '../../lib/benchUi/page';
import { measure, print, type Report } from '../../lib/benchUi/frames';
import { measureLearn, printLearn, type LearnReport } from '../../lib/benchUi/learn';
import { measureLesson, printLesson, type LessonReport } from '../../lib/benchUi/lesson';

/** The preview server and browser of this run (built once the port is known; the measurements open their pages through it). */
let harness: PreviewHarness | undefined;

async function main(): Promise<number> {
  const opts = readCommandLine('bench:ui', USAGE, parseOptions);
  if (opts.json) requireOutput('bench:ui', 'json', opts.json, 'file');
  if (opts.trace) requireOutput('bench:ui', 'trace', opts.trace, 'file');
  harness = new PreviewHarness(opts.port);
  useHarness(harness);
  harness.stopOnSignals();
  try {
    await harness.prepare(opts.build);
    await harness.serve();
    if (opts.learn && opts.seeds) return await learnOverSeeds(opts, opts.seeds);
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

/**
 * `--learn --seeds`: one page run to coordination per seed, one after another (each in a fresh
 * browser, so no run is offered back from the one before), each printed as a single run is,
 * then the table over the seeds and their median. With --json: each seed's report and the summary.
 */
async function learnOverSeeds(opts: Options, seeds: number[]): Promise<number> {
  const reports: LearnReport[] = [];
  for (const seed of seeds) {
    console.log(`\nseed ${seed}`);
    const report = await measureLearn({ ...opts, hash: withSeed(opts.hash, seed) });
    printLearn(report);
    reports.push(report);
  }
  // A run that coordinated is timed at the update it showed coordination for, else when the page showed it.
  const rows = reports.map((r) => ({
    seed: r.config.seed,
    seconds: r.reached ? (r.reached.seconds ?? r.reached.shownAt) : null,
    updates: r.reached ? r.reached.updates : null,
    trainedSeconds: r.trainedSeconds,
    best: r.best,
  }));
  const summary = summariseSeedTimes(rows);
  console.log(`\n${formatSeedTimes(rows)}`);
  console.log(describeSeedTimes(summary));
  if (opts.json) {
    writeFileSync(opts.json, JSON.stringify({ summary, seeds: reports }, null, 2) + '\n');
    console.log(`\nwrote ${opts.json}`);
  }
  return 0;
}

// `--soak MINUTES`: the soak benchmark (scripts/commands/bench/soak-ui.ts) instead of this one.
if (process.argv.slice(2).some((a) => a === '--soak' || a.startsWith('--soak='))) {
  await import('./soak-ui');
} else {
  runToExit(main, () => harness);
}
