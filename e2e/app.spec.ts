import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ready, SMALL, watchErrors } from './helpers';

test('training starts in the worker and the curve and readout update', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`/#${SMALL}&backend=cpu`);
  await ready(page);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('run-state')).toHaveText('running');
  await expect.poll(async () => Number(await page.getByTestId('update-count').textContent()), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('run-state')).toHaveText('paused');
  expect(await page.getByTestId('return-path').getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
  await expect(page.getByTestId('countdown')).toContainText(/update \d+ of \d+/);
  await expect(page.getByTestId('swimlanes').locator('rect').first()).toBeVisible();
  await expect(page.getByTestId('dm-graph').getByRole('button', { name: /agent 0/ })).toBeVisible();
  await expect(page.getByTestId('message-board')).toBeVisible();
  await expect(page.getByTestId('module-bars')).toContainText(/\d+\/\d+/);
  await page
    .getByTestId('dm-graph')
    .getByRole('button', { name: /agent 1/ })
    .click();
  await expect(page.getByTestId('board-filter')).toHaveValue('1');
  expect(errors).toEqual([]);
});

test('a schedule slider redraws the curve and changes the deadline the trainer uses', async ({ page }) => {
  await page.goto(`/#${SMALL}`);
  await ready(page);
  const before = await page.getByTestId('schedule-path').getAttribute('d');
  await page.getByTestId('tmax-start').fill('13');
  await expect(page.getByTestId('schedule-path')).not.toHaveAttribute('d', before ?? '');
  expect(page.url()).toMatch(/tmaxStart=13/);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('readout')).toContainText('13 min', { timeout: 60_000 });
});

test('the app opens on long-planned tasks at 20 -> 72; an old link opens long-coupled at 20 -> 80; picking a family brings its schedule', async ({ page }) => {
  await page.goto('/#v=2&backend=cpu');
  await expect(page.getByTestId('family')).toHaveValue('long-planned');
  await expect(page.getByTestId('tmax-start')).toHaveValue('20');
  await expect(page.getByTestId('tmax-end')).toHaveValue('72');
  // A link from before the link format (no v) opens what it always opened.
  await page.goto('about:blank');
  await page.goto('/#backend=cpu&seed=1');
  await expect(page.getByTestId('family')).toHaveValue('long-coupled');
  await expect(page.getByTestId('tmax-end')).toHaveValue('80');
  await page.getByTestId('family').selectOption('long-planned');
  await expect(page.getByTestId('tmax-end')).toHaveValue('72');
  // The link is rewritten in today's format: the default sprint needs no family in it, and the old
  // link's budget (300 updates of 4 x 8) and open channels (it was written before the channel policies) are named.
  await expect.poll(() => new URL(page.url()).hash).toBe('#v=4&updates=300&tasksPerUpdate=4&groupSize=8&channels=open&seed=1&backend=cpu');
  await page.getByTestId('family').selectOption('coupled');
  await expect(page.getByTestId('tmax-start')).toHaveValue('8');
  await expect(page.getByTestId('tmax-end')).toHaveValue('24');
  expect(page.url()).toMatch(/family=coupled/);
  // A schedule the user set stays when the family changes.
  await page.getByTestId('tmax-start').fill('13');
  await page.getByTestId('family').selectOption('long-parallel');
  await expect(page.getByTestId('tmax-start')).toHaveValue('13');
  await expect(page.getByTestId('tmax-end')).toHaveValue('24');
});

test('the URL round-trips the config', async ({ page }) => {
  await page.goto('/#family=parallel&agents=5&seed=7&advantage=rloo');
  await expect(page.getByTestId('family')).toHaveValue('parallel');
  await expect(page.getByTestId('agents')).toHaveValue('5');
  await expect(page.getByTestId('advantage')).toHaveValue('rloo');
  await page.getByTestId('family').selectOption('coupled');
  await page.getByTestId('advantage').selectOption('grpo');
  const url = page.url();
  expect(url).toMatch(/advantage=grpo/);
  expect(url).toMatch(/seed=7/);
  await page.goto('about:blank');
  await page.goto(url);
  await expect(page.getByTestId('advantage')).toHaveValue('grpo');
  await expect(page.getByTestId('agents')).toHaveValue('5');
});

test('a hostile URL opens clamped with a notice, markup shown as text', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/#agents=999999&lr=NaN&family=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&garbage');
  await expect(page.getByTestId('app-root')).toBeVisible();
  await expect(page.getByTestId('agents')).toHaveValue('16');
  const notices = page.getByTestId('notices');
  await expect(notices).toContainText('agents');
  await expect(notices).toContainText('<img src=x onerror=alert(1)>');
  await expect(page.locator('.notices img')).toHaveCount(0);
  await ready(page);
  expect(errors).toEqual([]);
});

test('with live views off it trains without drawing, and the views catch up on pause', async ({ page }) => {
  await page.goto(`/#${SMALL}&backend=cpu`);
  await ready(page);
  await page.getByTestId('live').uncheck();
  await page.getByTestId('play').click();
  await expect(page.getByTestId('run-state')).toHaveText('running');
  await expect(page.getByTestId('update-count')).toHaveText('–');
  await page.getByTestId('play').click();
  await expect(page.getByTestId('run-state')).toHaveText('paused');
  await page.getByTestId('step').click();
  await expect.poll(async () => Number(await page.getByTestId('update-count').textContent()), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('mini-useful')).toContainText(/\d/);
});

test('keyboard alone can start and pause training', async ({ page }) => {
  await page.goto(`/#${SMALL}&backend=cpu`);
  await ready(page);
  const play = page.getByTestId('play');
  for (let i = 0; i < 20 && !(await play.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(play).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-state')).toHaveText('running');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-state')).toHaveText('paused');
});

test('the showcase episode plays minute by minute at the chosen speed and scrubs to a minute', async ({ page }) => {
  await page.goto(`/#${SMALL}&backend=cpu`);
  await ready(page);
  await page.getByTestId('playback-speed').selectOption('2');
  await page.getByTestId('step').click();
  const minute = page.getByTestId('playback-minute');
  await expect(minute).toHaveText(/^\d+\/\d+$/, { timeout: 60_000 });
  const at = async () => Number((await minute.textContent())?.split('/')[0]);
  const first = await at();
  await expect.poll(at, { timeout: 20_000 }).toBeGreaterThan(first);
  await page.getByTestId('playback-toggle').click();
  await expect(page.getByTestId('playback-toggle')).toHaveText('Play episode');
  // Three agents act once a minute each: three minutes are nine boxes.
  await page.getByTestId('playback-tick').fill('3');
  await expect(minute).toHaveText(/^3\//);
  await expect(page.getByTestId('swimlanes').locator('svg rect')).toHaveCount(9);
  await expect(page.getByTestId('countdown-summary')).toContainText('Minute 3 of');
  await page.getByTestId('playback-tick').fill('0');
  await expect(page.getByTestId('swimlanes').locator('svg rect')).toHaveCount(0);
  await expect(page.getByTestId('board-feed')).toContainText('so far');
  // Held: further training does not replace the episode on screen.
  await page.getByTestId('step').click();
  await expect(page.getByTestId('update-count')).toHaveText('2', { timeout: 60_000 });
  await expect(page.getByTestId('playback-update')).toContainText('rollout of update 1 (training is at 2)');
  await page.getByTestId('playback-speed').selectOption('0');
  await expect(page.getByTestId('playback-update')).toHaveText('rollout of update 2');
});

test('the settings panel holds every other schema field; an extreme value is clamped with a note', async ({ page }) => {
  await page.goto(`/#${SMALL}`);
  await page.getByText(/All settings/).click();
  const entropy = page.getByTestId('setting-entropy');
  await entropy.fill('5');
  await entropy.press('Enter');
  await expect(entropy).toHaveValue('1');
  await expect(page.getByTestId('settings-panel')).toContainText('clamped to 1');
  expect(page.url()).toMatch(/entropy=1(&|$)/);
  await page.getByTestId('setting-critic').check();
  expect(page.url()).toMatch(/critic=true/);
  await page.getByTestId('setting-lr').fill('');
  await page.getByTestId('setting-lr').blur();
  await expect(page.getByTestId('setting-lr')).toHaveValue('0.005');
  await expect(page.getByTestId('settings-panel')).toContainText('"" is not a number');
  expect(page.url()).not.toMatch(/lr=/);
});

test('the page has no serious accessibility violations (axe, WCAG 2 A/AA)', async ({ page }) => {
  // wasm: the organisations race plays the swarm too, which the cpu backend does slowly.
  await page.goto(`/#${SMALL}&backend=wasm`);
  await ready(page);
  await page.getByTestId('playback-speed').selectOption('0');
  await page.getByTestId('step').click();
  await expect(page.getByTestId('update-count')).toHaveText('1', { timeout: 60_000 });
  await page.getByText(/All settings/).click();
  await page.getByTestId('ablations').locator('summary').click();
  await page.getByTestId('ablation-critic').check();
  // A quick race (6 tasks each): the test checks what the race shows, not how it scales.
  await page.getByTestId('race-tasks').selectOption('6');
  await page.getByTestId('race-run').click();
  await expect(page.getByTestId('race-times')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  // Only violations are collected: the passes of a page this size are most of axe's work.
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa'])
    .options({ resultTypes: ['violations'] })
    .analyze();
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
  expect(serious).toEqual([]);
});

for (const backend of ['cpu', 'wasm', 'webgl', 'webgpu']) {
  test(`the ${backend} backend completes updates in the worker`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(`/worker-check.html?backend=${backend}`);
    const result = page.locator('#result');
    await expect(result).toHaveAttribute('data-done', '1', { timeout: 170_000 });
    await expect(result).toContainText(`"backend": "${backend}"`);
  });
}

test('a view out of sight while training catches up when it comes into sight', async ({ page }) => {
  await page.goto(`/#${SMALL}&backend=cpu`);
  await ready(page);
  for (const n of ['1', '2']) {
    await page.getByTestId('step').click();
    await expect(page.getByTestId('update-count')).toHaveText(n, { timeout: 60_000 });
  }
  // The work panel lies below the stage: the browser skips drawing it, and its charts may hold still.
  const work = page.getByTestId('work-curves');
  await work.scrollIntoViewIfNeeded();
  await expect(work.getByRole('img', { name: 'useful work per episode over 2 updates' })).toBeVisible();
  await expect(work.getByTestId('mini-useful').locator('strong')).toHaveText(/^\d+\.\d$/);
});
