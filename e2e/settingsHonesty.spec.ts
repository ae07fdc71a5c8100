import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { encodeRunFile } from '../src/core/runFile';
import { runName } from '../src/core/runName';
import { fakeRun } from '../src/core/testing';
import { ready, SMALL, watchErrors } from './helpers';

/** Every part a link can hide (store/view.ts). */
const ALL_PARTS = 'header,bar,controls,schedule,ablations,settings,work,modules,organisations,library,curve,countdown,swimlanes,dm,board';

test('a bad ?threads= is named in a notice and threads are chosen automatically', async ({ page }) => {
  for (const bad of ['999', '-1', 'abc', '1e308', '0', '2.5']) {
    await page.goto(`/?threads=${bad}#${SMALL}&backend=cpu`);
    await expect(page.getByTestId('notices')).toContainText(
      `Link setting "threads": "${bad}" is not auto or an integer from 1 to 64; threads are chosen automatically`,
    );
    await page.goto('about:blank');
  }
});

test('?threads=64 is capped at the cores the browser reports, and the badge says so', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`/?threads=64#${SMALL}&backend=wasm`);
  await ready(page);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  test.skip(cores >= 64, 'this machine has 64 cores or more: nothing to cap');
  const coresText = cores === 1 ? '1 core' : `${cores} cores`;
  const badge = page.getByTestId('backend-badge');
  await expect(badge).toHaveText(new RegExp(`^(Fast: )?WebAssembly, \\d+ threads? \\(asked for 64; this machine has ${coresText}\\)$`));
  const threads = Number(/WebAssembly, (\d+) thread/.exec((await badge.textContent()) ?? '')?.[1]);
  expect(threads).toBeGreaterThanOrEqual(1);
  expect(threads).toBeLessThanOrEqual(cores);
  await badge.click();
  await expect(page.getByTestId('backend-details')).toContainText(`Threads: ${threads}, 64 asked for in the link, but this machine has ${coresText}`);
  expect(errors).toEqual([]);
});

test('a backend chosen by hand on a software GPU says so in the words auto mode uses', async ({ page }) => {
  await page.goto(`/#${SMALL}&backend=webgpu`);
  await ready(page);
  const badge = page.getByTestId('backend-badge');
  await badge.click();
  const details = (await page.getByTestId('backend-details').textContent()) ?? '';
  // The suite's browser offers WebGPU (--enable-unsafe-webgpu); where its adapter is a software one, the badge must not call it fast.
  if (/WebGPU: chosen by hand/.test(details) && /software fallback/.test(details)) {
    await expect(badge).toHaveText('Slow: GPU emulated in software (WebGPU)');
    expect(details).toContain('WebGPU: chosen by hand; WebGPU adapter is a software fallback');
  } else {
    await expect(badge).not.toHaveText(/emulated/);
  }
});

test('#backend=webgpu in a browser without WebGPU falls back as auto chooses, says to what and why, and calls a software GPU one', async ({
  playwright,
  baseURL,
}) => {
  // The suite's browser has WebGPU switched on (--enable-unsafe-webgpu); this one, launched without it, has none.
  const systemChromium = '/usr/bin/chromium';
  const browser = await playwright.chromium.launch({
    executablePath: existsSync(systemChromium) ? systemChromium : undefined,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  try {
    const page = await browser.newPage({ baseURL });
    const errors = watchErrors(page);
    await page.goto(`/#${SMALL}&backend=webgpu`);
    await ready(page);
    const badge = page.getByTestId('backend-badge');
    await expect(badge).toHaveText(/\(.*WebGPU asked for: [^)]+\)$/);
    await expect(badge).not.toHaveText(/^Fast: GPU/);
    await badge.click();
    const details = page.getByTestId('backend-details');
    await expect(details).toContainText('WebGPU was chosen by hand but');
    await expect(details).toContainText('so this one was chosen as auto chooses');
    // A software WebGL renderer (SwiftShader here) is given up in the same words as in auto mode.
    const text = (await details.textContent()) ?? '';
    if (/webgl: renderer .* is a software fallback, not timed/.test(text)) expect(text).toContain('WebGL renderer is a software fallback');
    await page.getByTestId('play').click();
    await expect.poll(async () => Number(await page.getByTestId('update-count').textContent()), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    await page.getByTestId('play').click();
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});

test('#lesson=0x3 is refused as 3.5 is, and no lesson opens', async ({ page }) => {
  await page.goto(`/#${SMALL}&backend=cpu&lesson=0x3`);
  await expect(page.getByTestId('notices')).toContainText('Link setting "lesson": "0x3" is not a lesson step');
  await expect(page.getByTestId('lesson')).toHaveCount(0);
  await expect(page.getByTestId('lesson-toggle')).toHaveAttribute('aria-pressed', 'false');
});

test('a hide= listing every part is refused: the page shows everything and says why', async ({ page }) => {
  const message = 'Link setting "hide": hiding every part would leave an empty page, so nothing was hidden';
  await page.goto(`/#${SMALL}&backend=cpu&hide=${ALL_PARTS}`);
  await expect(page.getByTestId('notices')).toContainText(message);
  for (const id of ['play', 'drawer-toggle', 'curves', 'library']) await expect(page.getByTestId(id)).toBeVisible();
  await page.goto('about:blank');
  // Embed mode shows the run buttons and the stage only: hiding those is hiding everything too.
  await page.goto(`/#${SMALL}&backend=cpu&embed&hide=bar,curve,countdown,swimlanes,dm,board`);
  await expect(page.getByTestId('notices')).toContainText(message);
  for (const id of ['play', 'curves']) await expect(page.getByTestId(id)).toBeVisible();
});

test('a run named with spaces lists under its default name, and a rename to spaces is refused', async ({ page }) => {
  const run = { ...fakeRun(5), name: '   ' };
  await page.goto(`/#${SMALL}&backend=cpu`);
  await page
    .getByTestId('library-import')
    .setInputFiles({ name: 'blank.swarmrun.json.gz', mimeType: 'application/gzip', buffer: Buffer.from(encodeRunFile(run)) });
  await expect(page.getByTestId('library-message')).toContainText('Imported 1 run');
  // Its default name: what sets it apart and when it started, in local time (the browser's and this process's).
  const row = page.getByTestId('library-row').first();
  await expect(row.getByTestId('library-name')).toHaveText(runName(run.config, new Date(run.created)));
  const name = await row.getByTestId('library-name').textContent();
  await row.getByTestId('library-rename').click();
  await page.getByTestId('library-rename-input').fill('   ');
  await page.getByTestId('library-rename-input').press('Enter');
  await expect(page.getByTestId('library-message')).toHaveText('A run name cannot be empty: the run keeps its name.');
  await expect(row.getByTestId('library-name')).toHaveText(name ?? '');
});

test('the preview server sends the host headers with the page and its files', async ({ request }) => {
  for (const path of ['/', '/favicon.svg']) {
    const headers = (await request.get(path)).headers();
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['cross-origin-embedder-policy']).toBe('require-corp');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('same-origin');
    expect(headers['content-security-policy']).toBe('frame-ancestors *');
  }
});

test('embed mode opens framed by a course page on another origin', async ({ page, baseURL }) => {
  // A course page on another origin: a server of its own on this machine (a made-up page would count as a public one, which may not frame a local server).
  const app = new URL(baseURL!);
  const body = `<!doctype html><title>Course</title><h1>Week 3</h1><iframe src="${app.origin}/#${SMALL}&backend=cpu&embed" width="1000" height="700"></iframe>`;
  const server = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const frame = page.frameLocator('iframe');
    await expect(frame.getByTestId('curves')).toBeVisible({ timeout: 30_000 });
    await expect(frame.getByTestId('play')).toBeEnabled({ timeout: 60_000 });
  } finally {
    server.close();
  }
});
