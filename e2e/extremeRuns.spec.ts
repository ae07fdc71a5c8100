import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { gunzipSync, gzipSync, strFromU8, strToU8 } from 'fflate';
import { ready, SMALL, watchErrors } from './helpers';

/**
 * Issue 26's probe: extreme but finite numbers in a run file, which were accepted and broke the
 * charts on Replay (`<path> attribute d: Expected number, "M44,190L74.526,NaN…"`). Each is made
 * from a checked-in run file (the flat run of src/core/fixtures) and must be refused by the field's
 * path, leaving the library as it was; the run they came from still opens and replays with no error.
 */
const source = () => JSON.parse(strFromU8(gunzipSync(new Uint8Array(readFileSync('src/core/fixtures/v2-27f62e3-flat.swarmrun.json.gz')))));
const gz = (v: unknown) => Buffer.from(gzipSync(strToU8(JSON.stringify(v))));

function counts(): Buffer {
  const run = source();
  for (const m of run.metrics) Object.assign(m, { useful: 1e308, messages: 1e308, duplicate: -1e308, idle: null });
  return gz(run);
}

function returns(): Buffer {
  const run = source();
  for (const m of run.metrics) m.ret = 1e308;
  for (const e of run.episodes.items) e.references = { chain: -1e308, bestOfN: 1e308, scripted: 1e308 };
  return gz(run);
}

function handoffs(): Buffer {
  const run = source();
  for (const m of run.metrics) m.handoffs = null;
  return gz(run);
}

test('run files with extreme numbers are refused by the field, the library is left as it was, and no chart draws a bad attribute', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`/#${SMALL}&backend=cpu`);
  await ready(page);
  const names = () => page.getByTestId('library-name').allTextContents();
  const msg = page.getByTestId('library-message');
  // The honest run first: it opens, so the library holds one run the probes must not change.
  await page.getByTestId('library-import').setInputFiles({ name: 'honest.swarmrun.json.gz', mimeType: 'application/gzip', buffer: gz(source()) });
  await expect(page.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  const before = await names();
  const cases: [string, Buffer, RegExp[]][] = [
    [
      'counts.swarmrun.json.gz',
      counts(),
      [
        /metrics\[0\]\.messages: 1e\+308 is outside 0 to \d+ \(4 agents x \d+ minutes/,
        /metrics\[0\]\.useful: 1e\+308 is outside 0 to/,
        /metrics\[0\]\.duplicate: -1e\+308 is outside 0 to/,
        /metrics\[0\]\.idle: expected a finite number, got NaN or null/,
      ],
    ],
    [
      'returns.swarmrun.json.gz',
      returns(),
      [
        /metrics\[0\]\.ret: 1e\+308 is outside 0 to 1/,
        // Five problems are listed, then a count: the references come after the 3 metrics rows.
        /and \d+ more problem/,
      ],
    ],
    ['handoffs.swarmrun.json.gz', handoffs(), [/metrics\[0\]\.handoffs: expected a finite number, got NaN or null/]],
  ];
  for (const [name, buffer, whys] of cases) {
    await page.getByTestId('library-import').setInputFiles({ name, mimeType: 'application/gzip', buffer });
    await expect(msg).toContainText(`"${name}" was not imported`, { timeout: 30_000 });
    for (const why of whys) await expect(msg).toContainText(why);
    expect(await names()).toEqual(before);
  }
  // The references alone, so their own paths show.
  const refs = source();
  for (const e of refs.episodes.items) e.references = { chain: -1e308, bestOfN: 1e308, scripted: 1e308 };
  await page.getByTestId('library-import').setInputFiles({ name: 'references.swarmrun.json.gz', mimeType: 'application/gzip', buffer: gz(refs) });
  await expect(msg).toContainText('"references.swarmrun.json.gz" was not imported', { timeout: 30_000 });
  await expect(msg).toContainText(/episodes\.items\[0\]\.references\.chain: -1e\+308 is outside 0 to 1/);
  await expect(msg).toContainText(/episodes\.items\[0\]\.references\.bestOfN: 1e\+308 is outside 0 to 1/);
  expect(await names()).toEqual(before);
  // The honest run replays: its charts draw, and nothing logs an error (an SVG attribute included).
  await page.getByTestId('library-replay').first().click();
  await expect(page.getByTestId('replay-badge')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('swimlanes').locator('svg rect').first()).toBeVisible();
  await expect(page.getByTestId('view-error')).toHaveCount(0);
  expect(errors.filter((e) => /attribute/i.test(e))).toEqual([]);
  expect(errors).toEqual([]);
});
