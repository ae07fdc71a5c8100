/**
 * Presenter mode from the back row: `npm run text-size [-- --width 1024] [--height 768] [--port 4193]
 * [--no-build] [--screenshots <folder>] [--json <file>]`.
 *
 * Builds the app, serves it with `vite preview`, opens it in headless Chromium at 1024x768 in
 * presenter mode, first on the stage while a small run trains (3 updates), then on every lesson
 * step (`#v=4&presenter&lesson=N`, each opened from its own link and waited for as the docs'
 * screenshots are). For each it prints the smallest rendered text in the stage's views (computed
 * font-size times every transform's scale, SVG text included), the smallest in the lesson panel,
 * how many pieces of view text are under 16 px, how many are cut off, how far the lesson's column
 * scrolls (0 px: its text reads without scrolling), the rows the header's buttons stand on, and the
 * share of the stage the step's focused view takes (for a view in the drawer or below the stage:
 * its share of the window). With --screenshots it also writes presenter-WxH.png and presenter-lesson-N-WxH.png there.
 * Exits 0 (it measures), 1 on errors, 2 on a bad command line.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { intFlag, parseFlags, pathFlag, readCommandLine } from '../../lib/cli';
import { PreviewHarness, runToExit } from '../../lib/previewHarness';
import { smallest, TEXT_PROBE, viewText, type TextReport } from '../../lib/textProbe';
import { LESSON_CONTENT } from '../../../src/core/lesson';
import { LINK_VERSION } from '../../../src/rl/config';

const USAGE = `usage: npm run text-size -- [--width 1024] [--height 768] [--port 4193] [--no-build] [--screenshots <folder>] [--json <file>]
  --width, --height  the window (default: 1024x768, a projector)
  --port <n>         port of the preview server (default: 4193)
  --no-build         serve the existing dist/ instead of running \`npm run build\` first
  --screenshots <d>  also write presenter-WxH.png and presenter-lesson-N-WxH.png into folder <d>
  --json <file>      also write every measured piece of text to <file>
  --help             print this help`;

/** The small run of the e2e tests (e2e/helpers.ts SMALL): the stage's case trains it. */
const SMALL = 'family=coupled&tmaxStart=8&tmaxEnd=24&agents=3&tasksPerUpdate=1&groupSize=2&updates=200&seed=5';
/** The size the issue asks for. */
const GOAL_PX = 16;

interface Options {
  width: number;
  height: number;
  port: number;
  build: boolean;
  screenshots?: string;
  json?: string;
}

function parseOptions(argv: string[]): Options | 'help' {
  const v = parseFlags(argv, {
    width: { type: 'string', default: '1024' },
    height: { type: 'string', default: '768' },
    port: { type: 'string', default: '4193' },
    'no-build': { type: 'boolean', default: false },
    screenshots: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help';
  return {
    width: intFlag('width', v.width, 320, 4000),
    height: intFlag('height', v.height, 320, 4000),
    port: intFlag('port', v.port, 1024, 65535),
    build: !v['no-build'],
    screenshots: v.screenshots === undefined ? undefined : pathFlag('screenshots', v.screenshots, 'a folder'),
    json: v.json === undefined ? undefined : pathFlag('json', v.json),
  };
}

async function waitForUpdates(page: Page, n: number): Promise<void> {
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid="update-count"]')?.textContent) >= k, n, { timeout: 120_000 });
}

/** Until the swimlanes show some minutes of the rollout (`cells` boxes), so the picture is not of minute 0. */
async function someMinutes(page: Page, cells: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="swimlanes"] svg rect').length >= n, cells, { timeout: 60_000 });
}

/** Two frames after the last change: what the screen shows now. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
}

async function backendChosen(page: Page): Promise<void> {
  await page.waitForFunction(() => !/Choosing/.test(document.querySelector('[data-testid="backend-badge"]')?.textContent ?? 'Choosing'), undefined, {
    timeout: 120_000,
  });
}

/** Pauses a live run so the screen stops changing (the play button toggles). */
async function pause(page: Page): Promise<void> {
  if (await page.evaluate(() => /Pause/i.test(document.querySelector('[data-testid="play"]')?.textContent ?? ''))) await page.getByTestId('play').click();
}

interface CaseResult {
  name: string;
  report: TextReport;
}

/** Opens `hash` in a fresh browser context (an empty library: no run left by the case before), measures it, closes it. */
async function measureCase(open: () => Promise<Page>, name: string, hash: string, prepare: (page: Page) => Promise<void>, shot?: string): Promise<CaseResult> {
  const page = await open();
  await page.goto(`/#${hash}`);
  await backendChosen(page);
  await prepare(page);
  await pause(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await settled(page);
  const report = (await page.evaluate(TEXT_PROBE)) as TextReport;
  if (shot) await page.screenshot({ path: shot });
  await page.context().close();
  return { name, report };
}

function line(r: CaseResult): string {
  const views = viewText(r.report);
  const min = smallest(views);
  const lessonMin = smallest(r.report.items.filter((i) => i.region === 'lesson'));
  const under = views.filter((i) => i.px < GOAL_PX).length;
  const clipped = r.report.items.filter((i) => i.clipped && i.region !== 'other');
  const focus =
    r.report.focus === null ? '-' : `${r.report.focus} (${r.report.focusPlace}) ${r.report.focusShare === null ? '?' : r.report.focusShare.toFixed(2)}`;
  return [
    r.name.padEnd(10),
    (min ? `${min.px.toFixed(1)} px` : '-').padStart(8),
    (min ? `"${min.text.slice(0, 18)}" in ${min.region}` : '').padEnd(38),
    String(under).padStart(5),
    (lessonMin ? `${lessonMin.px.toFixed(1)} px` : '-').padStart(9),
    String(clipped.length).padStart(7),
    (r.report.lessonScroll === null ? '-' : `${r.report.lessonScroll} px`).padStart(7),
    String(r.report.headerRows ?? '-').padStart(4),
    '  ' + focus,
    clipped.length
      ? `\n${''.padEnd(12)}cut off: ${clipped
          .slice(0, 4)
          .map((c) => `"${c.text.slice(0, 24)}" (${c.region})`)
          .join(', ')}`
      : '',
  ].join(' ');
}

async function main(o: Options): Promise<number> {
  harness = new PreviewHarness(o.port);
  harness.stopOnSignals();
  await harness.prepare(o.build);
  await harness.serve();
  const browser = await harness.launch();
  const open = async () => (await browser.newContext({ viewport: { width: o.width, height: o.height }, baseURL: harness!.origin })).newPage();
  const size = `${o.width}x${o.height}`;
  const shot = (n: string) => (o.screenshots ? `${o.screenshots}/${n}-${size}.png` : undefined);
  const results: CaseResult[] = [];
  results.push(
    await measureCase(
      open,
      'presenter',
      `${SMALL}&backend=wasm&presenter`,
      async (page) => {
        await page.getByTestId('play').click();
        await waitForUpdates(page, 3);
        await someMinutes(page, 12);
      },
      shot('presenter'),
    ),
  );
  for (const [i, step] of LESSON_CONTENT.entries()) {
    const n = i + 1;
    results.push(
      await measureCase(
        open,
        `lesson ${n}`,
        `v=${LINK_VERSION}&backend=wasm&presenter&lesson=${n}`,
        async (page) => {
          await page.getByTestId('lesson-title').waitFor();
          // Live steps: some updates on the curve (a one-update step: its rollout played on); replayed ones: the replay on screen.
          const setup = step.setup;
          if (setup.kind === 'pretrained') await page.getByTestId('replay-bar').waitFor({ timeout: 60_000 });
          else if (setup.run === 'train') await waitForUpdates(page, 3);
          else if (setup.run === 'step') {
            await waitForUpdates(page, 1);
            await someMinutes(page, 48);
          }
        },
        shot(`presenter-lesson-${n}`),
      ),
    );
  }
  console.log(`Presenter mode at ${size}: smallest text in the stage's views (goal: ${GOAL_PX} px), the focused view's share of the stage`);
  console.log(
    `${'case'.padEnd(10)} ${'smallest'.padStart(8)} ${'(where)'.padEnd(38)} ${'<16'.padStart(5)} ${'lesson'.padStart(9)} ${'cut off'.padStart(7)} ${'scroll'.padStart(7)} ${'hdr'.padStart(4)}   focused view (where) share`,
  );
  for (const r of results) console.log(line(r));
  if (o.json) writeFileSync(o.json, JSON.stringify(results, null, 1));
  await harness.close();
  return 0;
}

let harness: PreviewHarness | undefined;
const options = readCommandLine('text-size', USAGE, parseOptions);
runToExit(
  () => main(options),
  () => harness,
);
