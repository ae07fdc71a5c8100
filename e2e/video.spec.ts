import { readFile, writeFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readWebm } from '../src/ui/video/webm';
import { ready, SMALL, watchErrors } from './helpers';

/** Opens the app, trains one update and waits for its showcase episode. */
async function episodeOnScreen(page: Page): Promise<void> {
  await page.goto(`/#${SMALL}&backend=cpu`);
  await ready(page);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('playback-minute')).toHaveText(/^\d+\/\d+$/, { timeout: 60_000 });
}

test('exports a short WebM of the dashboard that states its duration, seeks and plays', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await episodeOnScreen(page);
  await page.getByTestId('video-export-open').click();
  const dialog = page.getByRole('dialog', { name: 'Export video' });
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('video-unsupported')).toHaveCount(0);
  await dialog.getByLabel('Resolution').selectOption({ label: '854×480' });
  await dialog.getByLabel('Speed').selectOption({ label: '16 min/s' });
  await expect(page.getByTestId('video-plan')).toHaveText(/rollout of update 1: \d+ frames/);
  const frames = Number((await page.getByTestId('video-plan').textContent())?.match(/(\d+) frames/)?.[1]);
  await page.getByTestId('video-start').click();
  const link = page.getByTestId('video-download');
  await expect(link).toBeVisible({ timeout: 120_000 });
  await expect(link).toHaveAttribute('download', 'swarm-episode-update-1.webm');
  const axe = await new AxeBuilder({ page }).include('[data-testid="video-export"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  const summary = (await page.getByTestId('video-summary').textContent()) ?? '';
  console.log(`video export: ${frames} frames at 854x480: ${summary} (${await page.getByTestId('video-summary').getAttribute('title')})`);

  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('swarm-episode-update-1.webm');
  const bytes = new Uint8Array(await readFile(await download.path()));
  expect([...bytes.slice(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
  const info = readWebm(bytes);
  expect(info.docType).toBe('webm');
  expect(info.codecId).toMatch(/^V_VP[89]$/);
  expect([info.width, info.height]).toEqual([854, 480]);
  expect(info.durationS).not.toBeNull();
  expect(info.durationS ?? 0).toBeCloseTo(frames / 30, 1);
  expect(info.hasCues).toBe(true);
  expect(info.cuePoints).toBeGreaterThan(0);
  expect(info.clusters).toBeGreaterThan(0);
  expect(info.blocks).toBe(frames);
  expect(info.keyframes).toBeGreaterThan(0);

  // An ordinary player: Chromium's <video> shows the duration, seeks, and decodes a frame there.
  const played = await page.evaluate(
    async (href) => {
      const video = document.createElement('video');
      video.muted = true;
      video.src = href;
      await new Promise((resolve, reject) => {
        video.onloadedmetadata = resolve;
        video.onerror = () => reject(new Error(`video error ${video.error?.code}`));
      });
      const duration = video.duration;
      video.currentTime = duration * 0.6;
      await new Promise((resolve) => (video.onseeked = resolve));
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const ctx = canvas.getContext('2d');
      ctx?.drawImage(video, 0, 0);
      const px = ctx?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
      const colours = new Set<number>();
      for (let i = 0; i < px.length; i += 4 * 97) colours.add((px[i] >> 4) * 256 + (px[i + 1] >> 4) * 16 + (px[i + 2] >> 4));
      return {
        duration,
        seekableEnd: video.seekable.length ? video.seekable.end(0) : 0,
        currentTime: video.currentTime,
        size: [video.videoWidth, video.videoHeight],
        colours: colours.size,
        png: canvas.toDataURL('image/png'),
      };
    },
    (await link.getAttribute('href')) ?? '',
  );
  expect(Number.isFinite(played.duration)).toBe(true);
  expect(played.duration).toBeCloseTo(info.durationS ?? 0, 1);
  expect(played.seekableEnd).toBeGreaterThan(0);
  expect(played.currentTime).toBeGreaterThan(0);
  expect(played.size).toEqual([854, 480]);
  // A drawn dashboard, not a blank frame.
  expect(played.colours).toBeGreaterThan(5);
  const png = testInfo.outputPath('frame.png');
  await writeFile(png, Buffer.from(played.png.split(',')[1], 'base64'));
  await testInfo.attach('frame at 60%', { path: png, contentType: 'image/png' });

  // Playback is back as it was (playing), and nothing went wrong on the page.
  await page.getByTestId('video-close').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('playback-toggle')).toHaveText('Pause episode');
  expect(errors).toEqual([]);
});

test('a cancelled export stops, says so and offers no file', async ({ page }) => {
  const errors = watchErrors(page);
  await episodeOnScreen(page);
  await page.getByTestId('video-export-open').click();
  const dialog = page.getByRole('dialog', { name: 'Export video' });
  await dialog.getByLabel('Record').selectOption({ label: 'Direct messages' });
  await dialog.getByLabel('Resolution').selectOption({ label: '1920×1080' });
  await dialog.getByLabel('Speed').selectOption({ label: '1 min/s' });
  await page.getByTestId('video-start').click();
  const progress = page.getByTestId('video-progress-text');
  await expect(progress).toHaveText(/^frame [1-9]\d* of \d+$/, { timeout: 30_000 });
  await expect(page.getByTestId('video-close')).toBeDisabled();
  await page.getByTestId('video-cancel').click();
  await expect(page.getByTestId('video-cancelled')).toHaveText(/cancelled/);
  await expect(page.getByTestId('video-download')).toHaveCount(0);
  await expect(page.getByTestId('video-progress')).toHaveCount(0);
  await expect(page.getByTestId('video-start')).toBeEnabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('playback-toggle')).toHaveText('Pause episode');
  expect(errors).toEqual([]);
});

test('before any episode, and without WebCodecs, the dialog says why it cannot export', async ({ page }) => {
  const errors = watchErrors(page);
  await page.addInitScript(() => {
    Reflect.deleteProperty(window, 'VideoEncoder');
  });
  await page.goto(`/#${SMALL}&backend=cpu`);
  const open = page.getByTestId('video-export-open');
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Export video' });
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('video-unsupported')).toContainText('no WebCodecs VideoEncoder');
  await expect(page.getByTestId('video-plan')).toContainText('Nothing to record yet');
  await expect(page.getByTestId('video-start')).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  expect(errors).toEqual([]);
});
