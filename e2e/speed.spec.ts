import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test, type BrowserContext } from '@playwright/test';
import { gunzipSync, strFromU8 } from 'fflate';
import { ready, SMALL, smallWith, watchErrors } from './helpers';

/** Serves every response without the cross-origin isolation headers, as a plain static host would. */
async function withoutIsolationHeaders(context: BrowserContext): Promise<void> {
  await context.route('**/*', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['cross-origin-opener-policy'];
    delete headers['cross-origin-embedder-policy'];
    await route.fulfill({ response, headers });
  });
}

test('the served page is cross-origin isolated and wasm runs the threads it planned', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`/#${SMALL}&backend=wasm`);
  await ready(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  const badge = (await page.getByTestId('backend-badge').textContent()) ?? '';
  const threads = Number(/WebAssembly, (\d+) threads?/.exec(badge)?.[1]);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  // auto plans one thread per core but one (left to the page), and keeps one thread if one measures faster.
  expect([1, Math.max(1, Math.min(cores - 1, 4))]).toContain(threads);
  await page.getByTestId('backend-badge').click();
  await expect(page.getByTestId('backend-details')).toContainText(`Threads: ${threads},`);
  // The learn step's own wasm kernels start on the page's wasm backend (rl/wasmKernels.ts).
  await expect(page.getByTestId('backend-details')).toContainText('Learn-step kernels: on');
  expect(errors).toEqual([]);
});

test('threads asked for in the link start in the built (minified) app and train', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`/?threads=2#${SMALL}&backend=wasm`);
  await ready(page);
  await expect(page.getByTestId('backend-badge')).toHaveText('Fast: WebAssembly, 2 threads');
  // On the threaded backend, whose memory is shared, the kernels' shared-memory build starts.
  await page.getByTestId('backend-badge').click();
  await expect(page.getByTestId('backend-details')).toContainText('Learn-step kernels: on');
  await page.getByTestId('play').click();
  await expect.poll(async () => Number(await page.getByTestId('update-count').textContent()), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await page.getByTestId('play').click();
  expect(errors).toEqual([]);
});

test('a flat run of two task groups trains in two shards on wasm, the second in a worker of its own where a core is spare', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`/#${smallWith({ tasksPerUpdate: 2 })}&backend=wasm`);
  await ready(page);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.getByTestId('backend-badge').click();
  const details = page.getByTestId('backend-details');
  await expect(details).toContainText("Shards: a flat run of 2 task groups or more splits each update's task groups over 2 shards");
  await expect(details).toContainText(cores >= 2 ? 'each shard but the first in a worker of its own' : 'all in the training worker');
  await page.getByTestId('play').click();
  await expect.poll(async () => Number(await page.getByTestId('update-count').textContent()), { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('run-state')).toHaveText('paused', { timeout: 30_000 });
  expect(errors).toEqual([]);
});

test('a sharded run trains the same numbers whatever the wasm threads of the training worker, and the same as the command line', async ({ browser }) => {
  const hash = `${smallWith({ tasksPerUpdate: 2 })}&backend=wasm`;
  const losses: number[][] = [];
  for (const threads of [1, 2]) {
    const page = await browser.newPage();
    await page.goto(`/?threads=${threads}#${hash}`);
    await ready(page);
    await expect(page.getByTestId('backend-badge')).toHaveText(threads === 1 ? 'WebAssembly, 1 thread' : 'Fast: WebAssembly, 2 threads');
    for (let n = 1; n <= 6; n++) {
      await page.getByTestId('step').click();
      await expect(page.getByTestId('update-count')).toHaveText(String(n), { timeout: 60_000 });
    }
    // Each update's loss as recorded (float32 to the last digit): any difference in the weights shows in it.
    await expect(page.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
    // Saves land one after another: exported again until the newest save holds the six updates.
    let metrics: { update: number; loss: number }[] = [];
    await expect(async () => {
      const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('library-export').first().click()]);
      metrics = (JSON.parse(strFromU8(gunzipSync(new Uint8Array(readFileSync((await dl.path())!))))) as { metrics: typeof metrics }).metrics;
      expect(metrics.map((m) => m.update)).toEqual([0, 1, 2, 3, 4, 5]);
    }).toPass({ timeout: 30_000 });
    losses.push(metrics.map((m) => m.loss));
    await page.close();
  }
  expect(losses[0].some((l) => l !== 0)).toBe(true);
  expect(losses[1]).toEqual(losses[0]);
  // And the command line's two threads train the same numbers (what the lesson check measures the live steps on).
  const node = execFileSync('npx', ['tsx', 'e2e/nodeShards.ts', hash.replace('&backend=wasm', ''), '6'], { encoding: 'utf8' });
  expect(JSON.parse(node.trim().split('\n').at(-1)!)).toEqual(losses[0]);
});

test('on a host without the headers the service worker isolates the page after one reload', async ({ context, page }) => {
  await withoutIsolationHeaders(context);
  await page.goto(`/#${SMALL}&backend=wasm`);
  // The service worker reloads the page once: an evaluation that the reload cuts short counts as "not yet".
  const isolated = () => page.evaluate(() => crossOriginIsolated && !!navigator.serviceWorker.controller).catch(() => false);
  await expect.poll(isolated, { timeout: 30_000 }).toBe(true);
  await ready(page);
  await expect(page.getByTestId('backend-badge')).toHaveText(/^Fast: WebAssembly, \d+ threads$|^WebAssembly, 1 thread$/);
});

test.describe('without service workers', () => {
  test.use({ serviceWorkers: 'block' });

  test('a page that cannot be isolated trains single-threaded and says why', async ({ context, page }) => {
    await withoutIsolationHeaders(context);
    await page.goto(`/#${SMALL}&backend=wasm`);
    await ready(page);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
    await expect(page.getByTestId('backend-badge')).toHaveText('WebAssembly, 1 thread');
    await page.getByTestId('backend-badge').click();
    await expect(page.getByTestId('backend-details')).toContainText('not cross-origin isolated');
  });
});

test('updates per second and the time left appear while training and say paused when paused', async ({ page }) => {
  await page.goto(`/#${SMALL}&backend=wasm`);
  await ready(page);
  await expect(page.getByTestId('update-rate')).toHaveText('–');
  await page.getByTestId('play').click();
  await expect(page.getByTestId('update-rate')).toHaveText(/^\d+\.\d+$/, { timeout: 60_000 });
  await expect(page.getByTestId('update-eta')).toHaveText(/^\d+ (s|min \d\d s|h \d\d min)$/);
  const rate = Number(await page.getByTestId('update-rate').textContent());
  expect(rate).toBeGreaterThan(0);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('run-state')).toHaveText('paused');
  await expect(page.getByTestId('update-rate')).toHaveText('paused');
  await expect(page.getByTestId('update-eta')).toHaveText('–');
});

test('the DM graph steps its message dots with the playback clock: SVG circles, no running animation', async ({ page }) => {
  await page.goto(`/#${SMALL}&backend=wasm`);
  await ready(page);
  await page.getByTestId('play').click();
  await expect.poll(() => page.locator('[data-testid=dm-graph] circle.dm-dot').count(), { timeout: 60_000 }).toBeGreaterThan(0);
  await page.getByTestId('play').click();
  expect(await page.locator('[data-testid=dm-graph] animateMotion').count()).toBe(0);
  const running = await page.locator('[data-testid=dm-graph] circle.dm-dot').evaluateAll((dots) => dots.reduce((n, d) => n + d.getAnimations().length, 0));
  expect(running).toBe(0);
});
