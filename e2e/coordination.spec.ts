import { expect, test, type Page } from '@playwright/test';
import { encodeRunFile } from '../src/core/runFile';
import type { RunFile, TalkRecord } from '../src/core/runFormat';
import { fakeRun } from '../src/core/testing';
import { TEXT_PROBE, type TextReport } from '../scripts/lib/textProbe';
import { ready, SMALL, watchErrors } from './helpers';

/**
 * Where a run first met coordination (src/sim/coordination.ts): its marker on the training curve and
 * the line of the Work, talk and waste panel, in a replay of a made-up run file whose talk
 * measurements meet all three conditions first at update 20.
 */

const UPDATES = 40;
const FIRST = 20;

/** A measurement after `updates` updates of the fake 2-agent run: against a scripted organisation at 0.9 (target 0.88). */
const measured = (updates: number, ret: number, useful: number, duplicate: number, neededShare: number): TalkRecord => ({
  updates,
  tmax: 24,
  tasks: 8,
  ret,
  muted: ret - 0.05,
  neededShare,
  messages: 4,
  useful,
  duplicate,
  scripted: 0.9,
});

/**
 * Update 10 misses the return, 20 meets all three (duplicates 10% of useful work, 70% needed), 30
 * dips below the return, 40 piles on (30% duplicates).
 */
const TALK: TalkRecord[] = [
  measured(0, 0.3, 20, 10, 0.2),
  measured(10, 0.6, 30, 3, 0.6),
  measured(FIRST, 0.89, 30, 3, 0.7),
  measured(30, 0.85, 30, 3, 0.7),
  measured(40, 0.9, 30, 9, 0.8),
];

/** Imports `run` into the library and replays it from its last update. */
async function replayImported(page: Page, run: RunFile): Promise<void> {
  await page
    .getByTestId('library-import')
    .setInputFiles({ name: 'run.swarmrun.json.gz', mimeType: 'application/gzip', buffer: Buffer.from(encodeRunFile(run)) });
  const row = page.getByTestId('library-row').filter({ has: page.getByTestId('library-name').getByText(run.name, { exact: true }) });
  await expect(row).toHaveCount(1);
  await row.getByTestId('library-replay').click();
  await expect(page.getByTestId('replay-badge')).toBeVisible();
  await expect(page.getByTestId('replay-name')).toHaveText(run.name);
  await expect(page.getByTestId('replay-update-label')).toHaveText(`${UPDATES} / ${UPDATES}`);
}

/** Moves the replay to recorded position `index` (update index + 1 done). */
async function seek(page: Page, index: number): Promise<void> {
  await page.getByTestId('replay-update').fill(String(index));
  await expect(page.getByTestId('replay-update-label')).toHaveText(`${index + 1} / ${UPDATES}`);
}

test('a replay marks where the run first met coordination, and the work panel names that update', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`/#${SMALL}&backend=cpu`);
  await ready(page);
  await replayImported(page, { ...fakeRun(UPDATES), name: 'coordinated run', talk: TALK });

  // The marker: one, at update 20, labelled, its tooltip naming the update and all three conditions.
  const marker = page.getByTestId('coordination-marker');
  await expect(marker).toHaveCount(1);
  await expect(marker).toHaveAttribute('data-updates', String(FIRST));
  await expect(marker.locator('text')).toHaveText('✓ coordinated');
  await expect(marker.locator('title')).toHaveText(
    'Coordinated at update 20, on 8 fresh tasks at the 24-minute deadline: return 0.890, target 0.880 or more (scripted 0.900 − 0.02); ' +
      'duplicate work 10% of useful work, at most 15%; needed deliveries 70%, at least 50%.',
  );
  // Not one of the settings' markers, and the curve's description says it too.
  await expect(page.getByTestId('curve-marker')).toHaveCount(0);
  await expect(page.getByTestId('curve-svg')).toHaveAttribute('aria-label', /Coordinated at update 20/);

  // The panel at the last update: reached at 20, and the latest measurement (40) misses the duplicates.
  const line = page.getByTestId('coordination');
  await expect(line).toHaveAttribute('data-coordinated-update', String(FIRST));
  await expect(line).toHaveAttribute('data-updates', String(UPDATES));
  await expect(line).toHaveAttribute('data-met', 'false');
  await expect(line.getByTestId('coordination-headline')).toHaveText('Coordinated at update 20. Latest measurement (update 40): 2 of 3 met.');
  await expect(line.getByTestId('coordination-return')).toHaveText('✓ met Return 0.900, target 0.880 or more (scripted 0.900 − 0.02)');
  await expect(line.getByTestId('coordination-duplicates')).toHaveText('✗ not met Duplicate work 30% of useful work, at most 15%');
  await expect(line.getByTestId('coordination-needed')).toHaveText('✓ met Needed deliveries 80%, at least 50%');

  // Scrubbed to update 20 the cursor stands on the marker, and the panel shows the coordinated measurement.
  await seek(page, FIRST - 1);
  await expect(page.getByTestId('curve-cursor')).toHaveAttribute('x1', (await marker.locator('line').first().getAttribute('x1'))!);
  await expect(line.getByTestId('coordination-headline')).toHaveText('Coordinated at update 20: all three conditions met.');
  await expect(line).toHaveAttribute('data-met', 'true');

  // Before it, the panel says what is missing and names no update; the curve, which shows the whole run, keeps the marker.
  await seek(page, 14);
  await expect(line.getByTestId('coordination-headline')).toHaveText('Not coordinated yet. Latest measurement (update 10): 2 of 3 met.');
  await expect(line).not.toHaveAttribute('data-coordinated-update');
  await expect(line.getByTestId('coordination-return')).toContainText('✗ not met Return 0.600');
  await expect(marker).toHaveCount(1);

  // A dip after it (update 30) keeps "coordinated at update 20" and says what the latest misses.
  await seek(page, 34);
  await expect(line.getByTestId('coordination-headline')).toHaveText('Coordinated at update 20. Latest measurement (update 30): 2 of 3 met.');
  await expect(line).toHaveAttribute('data-coordinated-update', String(FIRST));
  expect(errors).toEqual([]);
});

test('a run file recorded before coordination was measured shows no marker, says so in the panel, and raises no error', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`/#${SMALL}&backend=cpu`);
  await ready(page);
  // The same measurements without the useful and duplicate work and the scripted organisation's return.
  const old = TALK.map(({ useful: _u, duplicate: _d, scripted: _s, ...r }) => r);
  await replayImported(page, { ...fakeRun(UPDATES), name: 'older run', talk: old });
  await expect(page.getByTestId('talk-gain')).toContainText('update 40');
  await expect(page.getByTestId('coordination-marker')).toHaveCount(0);
  const line = page.getByTestId('coordination');
  await expect(line.getByTestId('coordination-headline')).toHaveText('Not known: this run was recorded before coordination was measured.');
  await expect(line).not.toHaveAttribute('data-coordinated-update');
  await expect(line).not.toHaveAttribute('data-met');
  await expect(line.locator('li')).toHaveCount(0);
  // A run file with no measurement at all: no marker and no line.
  await page.getByTestId('replay-leave').click();
  await replayImported(page, { ...fakeRun(UPDATES), name: 'silent run' });
  await expect(page.getByTestId('talk-empty')).toBeVisible();
  await expect(page.getByTestId('coordination-marker')).toHaveCount(0);
  await expect(page.getByTestId('coordination')).toHaveCount(0);
  expect(errors).toEqual([]);
});

/** The probe's report for the marker's label and the coordination line's text, once the screen has drawn. */
async function coordinationText(page: Page): Promise<TextReport['items']> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const wanted = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=coordination] :is(h3, p, li > span), [data-testid=coordination-marker] text')].map((e) =>
      (e.firstChild?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60),
    ),
  );
  const report = (await page.evaluate(TEXT_PROBE)) as TextReport;
  return report.items.filter((i) => wanted.includes(i.text));
}

for (const presenter of [false, true])
  test(`at 1024x768${presenter ? ' in presenter mode' : ''} the marker's label and the coordination line read whole`, async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`/#${SMALL}&backend=cpu${presenter ? '&presenter' : ''}`);
    await ready(page);
    await replayImported(page, { ...fakeRun(UPDATES), name: 'coordinated run', talk: TALK });
    await page.getByTestId('curves').scrollIntoViewIfNeeded();
    const label = (await coordinationText(page)).filter((i) => i.text === '✓ coordinated');
    expect(label).toHaveLength(1);
    expect(label[0]).toMatchObject({ region: 'curves', clipped: false });
    if (presenter) expect(label[0].px).toBeGreaterThanOrEqual(16);
    await page.getByTestId('coordination').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('coordination')).toBeInViewport({ ratio: 1 });
    const items = (await coordinationText(page)).filter((i) => i.text !== '✓ coordinated');
    // The heading, the headline, and a verdict and a condition for each of the three.
    expect(items.length).toBeGreaterThanOrEqual(8);
    expect(items.filter((i) => i.clipped).map((i) => i.text)).toEqual([]);
    if (presenter) expect(items.filter((i) => i.px < 16).map((i) => `${i.px}px ${i.text}`)).toEqual([]);
  });
