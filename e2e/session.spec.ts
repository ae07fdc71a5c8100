import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { gunzipSync, strFromU8 } from 'fflate';
import { ready, SMALL, smallWith, watchErrors } from './helpers';

/**
 * The training session under faults, reloads and closed tabs. Runs on the wasm backend with the
 * small run (3 agents, 1 task x 2 rollouts): every test checks recovery, not training speed.
 */
const RUN = `/#${SMALL}&backend=wasm`;

const count = async (page: Page) => Number((await page.getByTestId('update-count').textContent()) ?? 'NaN');
const updatesAtLeast = (page: Page, n: number) => expect.poll(() => count(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(n);
/** Updates of the library's newest run (the number column). */
const storedUpdates = async (page: Page) => Number(await page.getByTestId('library-row').first().locator('td.num').nth(1).textContent());

type Fault = 'throw' | 'close' | 'device' | 'nan' | 'kill';
const inject = (page: Page, kind: Fault) =>
  page.evaluate((k) => (globalThis as unknown as { __swarmFaults: { inject(k: string): void } }).__swarmFaults.inject(k), kind);

test('Train clicked at once after load starts training, and no failure notice appears', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(RUN);
  // No wait for the backend: the click is queued until the worker is ready.
  await page.getByTestId('play').click();
  await updatesAtLeast(page, 1);
  await expect(page.getByTestId('run-state')).toHaveText('running');
  await expect(page.getByTestId('notices')).toHaveCount(0);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('run-state')).toHaveText('paused');
  expect(errors).toEqual([]);
});

for (const [kind, says] of [
  ['throw', /crashed/],
  // A closed worker, or one killed from outside (terminated, as a crash would end it), fires no
  // event: its life lock, released as it ends, says so at once.
  ['close', /ended without a word/],
  ['kill', /ended without a word/],
  ['device', /failed on wasm: the GPU device was lost.*resumed on cpu/],
] as [Fault, RegExp][]) {
  test(`a worker fault (${kind}) is shown, the trainer restarts and resumes from the last checkpoint, and nothing stored is lost`, async ({ page }) => {
    await page.goto(RUN);
    await ready(page);
    await page.getByTestId('play').click();
    await updatesAtLeast(page, 1);
    await page.getByTestId('record-save').click();
    await expect(page.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
    await expect.poll(() => storedUpdates(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const saved = await storedUpdates(page);
    await inject(page, kind);
    const notice = page.getByTestId('session-fault');
    await expect(notice).toContainText(says, { timeout: 60_000 });
    await expect(notice).toContainText(/resumed on \w+ from update \d+/);
    const from = Number(/from update (\d+)/.exec((await notice.textContent()) ?? '')?.[1]);
    expect(from).toBeGreaterThanOrEqual(saved);
    // Still training, and Pause works and saves into the same library entry (a dead worker used to block both).
    await expect(page.getByTestId('run-state')).toHaveText('running');
    await page.getByTestId('play').click();
    await expect(page.getByTestId('run-state')).toHaveText('paused');
    // The count on screen may still take in the last update after the pause (views refresh at most
    // every 100 ms): what must hold is that, once both settle, the library holds every update shown.
    await expect.poll(() => shownAndStored(page), { timeout: 30_000 }).toBe(true);
    expect(await count(page)).toBeGreaterThanOrEqual(from);
    await expect(page.getByTestId('library-row')).toHaveCount(1);
  });
}

test('a NaN loss stops training with its cause; one click lowers the learning rate as promised and training goes on', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(RUN);
  await ready(page);
  await page.getByTestId('play').click();
  await updatesAtLeast(page, 2);
  // The next update's loss is NaN (a test-only hook of the e2e build): the trainer's numeric guard stops it.
  await inject(page, 'nan');
  const notices = page.getByTestId('notices');
  await expect(notices).toContainText(
    /Training stopped at update \d+: the loss became NaN or infinite\. The weights are back at their last good values; the likely cause is the learning rate \(0\.005\): lower it, e\.g\. to 0\.0005, then resume\./,
    { timeout: 60_000 },
  );
  await expect(page.getByTestId('run-state')).toHaveText('paused');
  await expect(page.getByTestId('session-fault')).toHaveCount(0);
  const stoppedAt = Number(/stopped at update (\d+)/.exec((await notices.textContent()) ?? '')?.[1]);
  // The updates before the fault are all there (update `stoppedAt`, 0-based, is the one that failed).
  await expect(page.getByTestId('update-count')).toHaveText(String(stoppedAt));
  await expect(page).not.toHaveURL(/lr=/);

  const resume = page.getByTestId('fault-resume');
  await expect(resume).toHaveText('Lower the learning rate to 0.0005 and resume');
  await resume.click();
  await expect(page).toHaveURL(/[#&]lr=0\.0005(&|$)/);
  await expect(notices).toHaveCount(0);
  await updatesAtLeast(page, stoppedAt + 2);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('run-state')).toHaveText('paused');
  expect(await page.getByTestId('readout').textContent()).not.toContain('NaN');

  // The recording says the trainer itself ran at the lower rate from the failed update on, and no number went NaN.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('record-export').click()]);
  const run = JSON.parse(strFromU8(gunzipSync(new Uint8Array(readFileSync((await dl.path())!)))));
  expect(run.config.lr).toBe(0.005);
  expect(run.configChanges.map((c: { update: number; config: { lr: number } }) => [c.update, c.config.lr])).toEqual([[stoppedAt, 0.0005]]);
  expect(run.metrics.length).toBeGreaterThanOrEqual(stoppedAt + 2);
  expect(run.metrics.map((m: { update: number }) => m.update)).toEqual(run.metrics.map((_: unknown, i: number) => i));
  expect(JSON.stringify(run.metrics)).not.toContain('null');
  expect(errors).toEqual([]);
});

test('a full library keeps the run in memory and says so; once there is room it is stored', async ({ page }) => {
  await page.goto(RUN);
  await ready(page);
  await page.evaluate(() => {
    const put = IDBObjectStore.prototype.put;
    const w = globalThis as unknown as { __restorePut: () => void };
    IDBObjectStore.prototype.put = function () {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    w.__restorePut = () => (IDBObjectStore.prototype.put = put);
  });
  await page.getByTestId('step').click();
  await expect(page.getByTestId('library-message')).toContainText(/library is full.*kept in memory/, { timeout: 30_000 });
  await expect(page.getByTestId('library-row')).toHaveCount(0);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('update-count')).toHaveText('2', { timeout: 60_000 });
  // The run in memory can still be exported.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('record-export').click()]);
  expect(download.suggestedFilename()).toMatch(/\.swarmrun\.json\.gz$/);
  await page.evaluate(() => (globalThis as unknown as { __restorePut: () => void }).__restorePut());
  await page.getByTestId('record-save').click();
  await expect(page.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  await expect.poll(() => storedUpdates(page), { timeout: 30_000 }).toBe(2);
});

test('a library deleted while a run trains and saves: the run is kept in memory, the page says so, it still exports and is saved again', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(RUN);
  await ready(page);
  await page.getByTestId('play').click();
  await updatesAtLeast(page, 2);
  await expect(page.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  // Deleted from the page, as another tab or the browser's settings would: the deletion must not wait for the app.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const r = indexedDB.deleteDatabase('swarm-playground-runs');
        r.onsuccess = () => resolve();
        r.onerror = () => reject(r.error);
      }),
  );
  await expect(page.getByTestId('library-message')).toContainText(/run library was deleted.*kept in memory and saved again/);
  await expect(page.getByTestId('run-state')).toHaveText('running');
  const after = await count(page);
  await updatesAtLeast(page, after + 2);
  // Exported from memory.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('record-export').click()]);
  const run = JSON.parse(strFromU8(gunzipSync(new Uint8Array(readFileSync((await download.path())!)))));
  expect(run.metrics.length).toBeGreaterThanOrEqual(after);
  // Saved again into the new library, with every update from the first.
  await page.getByTestId('play').click();
  await expect(page.getByTestId('run-state')).toHaveText('paused');
  await expect(page.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  await expect.poll(() => shownAndStored(page), { timeout: 30_000 }).toBe(true);
  expect(errors).toEqual([]);
});

test('every update the curve showed is in the library after a reload, and the resume says from which checkpoint it goes on', async ({ page }) => {
  // The probe's run, long enough to be training still when the page reloads.
  await page.goto(`/#${smallWith({ updates: 4000 })}&backend=wasm`);
  await ready(page);
  await page.getByTestId('play').click();
  await updatesAtLeast(page, 1);
  // Reloaded between two autosaves (every 5 s): the last seconds shown are in no saved file.
  await page.waitForTimeout(7_500);
  const shown = await count(page);
  await page.reload();
  await expect(page.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  const kept = await storedUpdates(page);
  expect(kept).toBeGreaterThanOrEqual(shown);
  await expect(page.getByTestId('resume-offer')).toContainText(`(${kept} updates)`);
  await ready(page);
  await page.getByTestId('resume-run').click();
  const message = page.getByTestId('library-message');
  await expect(message).toContainText(/Training resumed from update \d+, the run's last checkpoint/, { timeout: 30_000 });
  const from = Number(/from update (\d+)/.exec((await message.textContent()) ?? '')?.[1]);
  expect(from).toBeGreaterThan(0);
  expect(from).toBeLessThanOrEqual(kept);
  await expect(page.getByTestId('update-count')).toHaveText(String(from));
});

test('the run offered after a reload resumes where its recording ended, into the same entry', async ({ page }) => {
  await page.goto(RUN);
  await ready(page);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('update-count')).toHaveText('1', { timeout: 60_000 });
  await expect.poll(() => storedUpdates(page), { timeout: 30_000 }).toBe(1);
  await page.reload();
  await ready(page);
  await page.getByTestId('resume-offer').getByTestId('resume-run').click();
  await expect(page.getByTestId('update-count')).toHaveText('1', { timeout: 30_000 });
  await page.getByTestId('step').click();
  await expect(page.getByTestId('update-count')).toHaveText('2', { timeout: 60_000 });
  await expect.poll(() => storedUpdates(page), { timeout: 30_000 }).toBe(2);
  await expect(page.getByTestId('library-row')).toHaveCount(1);
});

test('a run survives a closed tab', async ({ context }) => {
  const page = await context.newPage();
  await page.goto(RUN);
  await ready(page);
  await page.getByTestId('play').click();
  await updatesAtLeast(page, 1);
  // At least one autosave has landed (every 5 s while training runs) before the tab closes.
  await expect(page.getByTestId('record-status')).toContainText('last saved', { timeout: 30_000 });
  const early = await storedUpdates(page);
  await page.close({ runBeforeUnload: true });
  const again = await context.newPage();
  await again.goto(RUN);
  await ready(again);
  await expect(again.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  expect(await storedUpdates(again)).toBeGreaterThanOrEqual(early);
  await expect(again.getByTestId('resume-offer')).toBeVisible();
});

test('racing the organisations during a replay races the replayed swarm', async ({ page }) => {
  await page.goto(RUN);
  await ready(page);
  for (const n of ['1', '2']) {
    await page.getByTestId('step').click();
    await expect(page.getByTestId('update-count')).toHaveText(n, { timeout: 60_000 });
  }
  await page.getByTestId('reset').click();
  await expect(page.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  // The save that Reset starts lands after an earlier autosave may have listed the run: wait for both updates.
  await expect(page.getByTestId('library-row').first().locator('td.num').nth(1)).toHaveText('2', { timeout: 30_000 });
  await page.getByTestId('library-row').first().getByTestId('library-replay').click();
  await expect(page.getByTestId('replay-badge')).toBeVisible();
  // A quick race (6 tasks each): the test checks what the race shows, not how it scales.
  await page.getByTestId('race-tasks').selectOption('6');
  await page.getByTestId('race-run').click();
  await expect(page.getByTestId('race-summary')).toContainText(/coupled tasks, 3 agents, replayed swarm ".+" after 2 updates/, { timeout: 60_000 });
});

test('two tabs share one library: one trains at a time, the other says why and takes over, and neither run is lost', async ({ context }) => {
  // Two tabs load and train side by side on the machine's cores: slower than one.
  test.setTimeout(120_000);
  // Runs long enough that neither tab finishes its run (and gives the lock back) while the test watches.
  const LONG = `/#${smallWith({ updates: 5000 })}&backend=wasm`;
  const a = await context.newPage();
  await a.goto(LONG);
  await ready(a);
  await a.getByTestId('play').click();
  await updatesAtLeast(a, 2);
  const b = await context.newPage();
  await b.goto(LONG);
  await ready(b);
  // The first tab's run is listed, and not offered for resuming: that tab is training it.
  await expect(b.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  await expect(b.getByTestId('resume-offer')).toHaveCount(0);
  await b.getByTestId('play').click();
  const notice = b.getByTestId('other-tab');
  await expect(notice).toContainText('Another tab of this app is training, so this one does not');
  await expect(b.getByTestId('run-state')).not.toHaveText('running');
  // No update was trained here (the count shows none).
  expect((await count(b)) || 0).toBe(0);
  // Taking over: the first tab pauses and saves its run, the second trains.
  await b.getByTestId('take-over').click();
  await expect(notice).toHaveCount(0);
  await updatesAtLeast(b, 2);
  await expect(a.getByTestId('other-tab')).toContainText('took training over, so this one paused; its run is saved in the library');
  await expect(a.getByTestId('run-state')).toHaveText('paused');
  const first = await settledCount(a);
  // The first tab's run is in the library with every update it showed, beside the second's.
  await b.getByTestId('play').click();
  await expect(b.getByTestId('run-state')).toHaveText('paused');
  const second = await settledCount(b);
  await b.reload();
  await expect(b.getByTestId('library-row')).toHaveCount(2, { timeout: 30_000 });
  const rows = b.getByTestId('library-row');
  const stored = [Number(await rows.nth(0).locator('td.num').nth(1).textContent()), Number(await rows.nth(1).locator('td.num').nth(1).textContent())];
  expect(stored.sort((x, y) => x - y)).toEqual([first, second].sort((x, y) => x - y));
  // The tab taken over from trains again once the other is paused.
  await a.getByTestId('play').click();
  await expect(a.getByTestId('run-state')).toHaveText('running');
  await expect(a.getByTestId('other-tab')).toHaveCount(0);
});

/** The count on screen once the views have drawn the last update (unchanged over two polls, 250 ms apart: they refresh at most every 100 ms). */
const settledCount = async (page: Page) => {
  let last = NaN;
  await expect
    .poll(
      async () => {
        const now = await count(page);
        const same = now === last;
        last = now;
        return same;
      },
      { intervals: [250], timeout: 10_000 },
    )
    .toBe(true);
  return last;
};

/** Whether the library holds exactly the updates the page shows (read together, so a late view refresh cannot split them). */
const shownAndStored = async (page: Page) => (await count(page)) === (await storedUpdates(page));

/** The library's summaries as stored (read from IndexedDB directly), to compare before and after. */
const storedSummaries = (page: Page) =>
  page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('swarm-playground-runs');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const all = await new Promise<unknown[]>((resolve, reject) => {
      const r = db.transaction('summaries').objectStore('summaries').getAll();
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    db.close();
    return all;
  });

test('a tab closed during a video export leaves the library as it was: the run opens and replays in a new tab', async ({ context }) => {
  const page = await context.newPage();
  await page.goto(RUN);
  await ready(page);
  for (const n of ['1', '2']) {
    await page.getByTestId('step').click();
    await expect(page.getByTestId('update-count')).toHaveText(n, { timeout: 60_000 });
  }
  await expect.poll(() => storedUpdates(page), { timeout: 30_000 }).toBe(2);
  await expect(page.getByTestId('playback-minute')).toHaveText(/^\d+\/\d+$/, { timeout: 60_000 });
  const before = await storedSummaries(page);
  await page.getByTestId('video-export-open').click();
  const dialog = page.getByRole('dialog', { name: 'Export video' });
  await dialog.getByLabel('Resolution').selectOption({ label: '1920×1080' });
  await dialog.getByLabel('Speed').selectOption({ label: '1 min/s' });
  await page.getByTestId('video-start').click();
  await expect(page.getByTestId('video-progress-text')).toHaveText(/^frame [1-9]\d* of \d+$/, { timeout: 30_000 });
  await page.close({ runBeforeUnload: true });
  const again = await context.newPage();
  await again.goto(RUN);
  await ready(again);
  await expect(again.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  expect(await storedSummaries(again)).toEqual(before);
  await again.getByTestId('library-row').first().getByTestId('library-replay').click();
  await expect(again.getByTestId('replay-badge')).toBeVisible();
});
