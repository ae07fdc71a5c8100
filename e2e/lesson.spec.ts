import { expect, test, type Page } from '@playwright/test';
import { ready, SMALL, watchErrors } from './helpers';

/** The lesson step on screen (from its title, "Step 3 of 7: ..."). */
async function stepShown(page: Page): Promise<number> {
  const t = (await page.getByTestId('lesson-title').textContent()) ?? '';
  return Number(/^Step (\d+) of/.exec(t)?.[1] ?? NaN);
}

/** Sets a slider as a drag does: the value, then the input event React listens to. */
async function setRange(page: Page, testId: string, value: string): Promise<void> {
  await page.getByTestId(testId).evaluate((el, v) => {
    const input = el as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, v);
    // As the browser does when a value is set at once: input, then change (which ends the slider's gesture).
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
}

const updates = async (page: Page) => Number(await page.getByTestId('update-count').textContent());

test('the lesson keys work wherever focus is: after clicking Train, on a slider, from the page; PageUp/PageDown and Space too; a text field keeps its keys', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await page.goto(`/#${SMALL}&backend=wasm&lesson=1`);
  await ready(page);
  const title = page.getByTestId('lesson-title');
  await expect(title).toHaveText(/^Step 1 of/);
  // Step 1 trains by itself: clicking the header's button (Pause) puts the focus there, then the arrow moves the lesson.
  await expect(page.getByTestId('play')).toHaveText('Pause', { timeout: 60_000 });
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(title).toHaveText(/^Step 2 of/);
  // A presentation clicker: PageDown / PageUp, from wherever the focus went.
  await page.keyboard.press('PageDown');
  await expect(title).toHaveText(/^Step 3 of/);
  await page.keyboard.press('PageDown');
  await expect(title).toHaveText(/^Step 4 of/);
  await page.keyboard.press('PageDown');
  await expect(title).toHaveText(/^Step 5 of/);
  // Step 5 opens the drawer with the schedule: a click on a slider, then the arrows move the lesson, not the slider.
  const start = page.getByTestId('tmax-start');
  await expect(start).toBeVisible();
  await start.focus();
  const before = await start.inputValue();
  await page.keyboard.press('ArrowLeft');
  await expect(title).toHaveText(/^Step 4 of/);
  expect(await start.inputValue()).toBe(before);
  // Space from the page's body moves on; Shift+Space goes back.
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('Space');
  await expect(title).toHaveText(/^Step 5 of/);
  await page.keyboard.press('Shift+Space');
  await expect(title).toHaveText(/^Step 4 of/);
  // In a text field the keys edit: the drawer's "agents" number field keeps its arrows and the lesson stays.
  await page.getByTestId('lesson-next').click();
  await expect(title).toHaveText(/^Step 5 of/);
  const field = page.getByTestId('agents');
  await field.focus();
  await expect(field).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('PageDown');
  expect(await stepShown(page)).toBe(5);
  expect(errors).toEqual([]);
});

test("opening the lesson while a run trains restarts it cleanly with the step's settings: it keeps training, the curve fills in, no stale deadline", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  // A run of other settings (3 agents, 200 updates) trains first.
  await page.goto(`/#${SMALL}&backend=wasm`);
  await ready(page);
  await page.getByTestId('play').click();
  await expect.poll(() => updates(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(5);
  await page.getByTestId('lesson-toggle').click();
  await expect(page.getByTestId('lesson-title')).toHaveText(/^Step 1 of/);
  // The step's own run (4 agents) trains: the URL says so, Train reads Pause, and the update count climbs from a fresh start.
  await expect.poll(() => new URL(page.url()).hash).toContain('agents=4');
  await expect(page.getByTestId('play')).toHaveText('Pause', { timeout: 30_000 });
  await expect.poll(() => updates(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
  const seen = await updates(page);
  await expect.poll(() => updates(page), { timeout: 60_000 }).toBeGreaterThan(seen);
  // The deadline line speaks of this run's schedule (8 -> 24 minutes), never of a deadline beyond its end.
  await expect(page.getByTestId('countdown')).not.toContainText('shrinking');
  expect(errors).toEqual([]);
});

test("each step sets up its own state: step 5's fixed deadline does not label step 6's replay; step 8 is a fresh run Train can start, and an ablation labels no old curve", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  // A link from before the contrast step: its step 4 was the schedule, step 5 now.
  await page.goto(`/#backend=wasm&seed=5&lesson=4`);
  await ready(page);
  await expect(page.getByTestId('lesson-title')).toHaveText(/^Step 5 of/);
  await expect.poll(() => updates(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  // The class drags "start" up to the end: a fixed deadline, which the badge names.
  const end = await page.getByTestId('tmax-end').inputValue();
  await setRange(page, 'tmax-start', end);
  await expect(page.getByTestId('ablation-badge')).toContainText(`fixed Tmax ${end}`);
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('lesson-title')).toHaveText(/^Step 6 of/);
  await expect(page.getByTestId('replay-bar')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('ablation-badge')).toHaveCount(0);
  // Step 9 ("switch one thing on and press Train"): a fresh run, nothing on the curve, Train enabled.
  await page
    .getByRole('navigation', { name: 'Lesson steps' })
    .getByRole('link', { name: /^Step 9:/ })
    .click();
  await expect(page.getByTestId('lesson-title')).toHaveText(/^Step 9 of/);
  await expect(page.getByTestId('replay-bar')).toHaveCount(0);
  await expect(page.getByTestId('update-count')).toHaveText('–');
  await expect(page.getByTestId('ablation-badge')).toHaveCount(0);
  await page.getByTestId('ablation-rewards').selectOption('individual');
  await expect(page.getByTestId('ablation-badge')).toContainText('individual rewards');
  // No old curve carries the new label: there is still no update on it, and Train is ready.
  await expect(page.getByTestId('update-count')).toHaveText('–');
  const train = page.getByTestId('play');
  await expect(train).toBeEnabled();
  await expect(train).toHaveText('Train');
  await train.click();
  await expect.poll(() => updates(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  expect(errors).toEqual([]);
});
