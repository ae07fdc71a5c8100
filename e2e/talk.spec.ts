import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { ready, SMALL, watchErrors } from './helpers';

test('the work panel says what talk is worth for the swarm as trained so far', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`/#${SMALL}&backend=cpu`);
  await ready(page);
  const talk = page.getByTestId('talk-value');
  // The fresh swarm is measured before any update.
  await expect(talk.getByTestId('talk-gain')).toContainText('before training', { timeout: 60_000 });
  await page.getByTestId('step').click();
  await expect(page.getByTestId('update-count')).toHaveText('1', { timeout: 60_000 });
  await page.getByTestId('step').click();
  await expect(page.getByTestId('update-count')).toHaveText('2', { timeout: 60_000 });
  // Each single step is measured after it, so the figure settles on update 2.
  const gain = talk.getByTestId('talk-gain');
  await expect(gain).toContainText('update 2', { timeout: 60_000 });
  await expect(gain).toHaveText(
    /^(Talk is worth \+\d\.\d\d of the tests|Muting it would gain \d\.\d\d: its talk is overhead|Its talk makes no difference to the tests) \(\d\.\d\d talking vs \d\.\d\d muted, update 2\)\.$|^The swarm sends no messages/,
  );
  await expect(talk.getByTestId('talk-needed')).toHaveText(
    /^On these fresh tasks \d{1,3}% of deliveries brought an interface the receiver needed\.$|^No messages were sent/,
  );
  await expect(talk).toContainText(/Measured on 8 fresh tasks at the \d+-minute deadline/);
  await talk.getByRole('button', { name: 'What does this show?' }).focus();
  await expect(talk.getByRole('tooltip')).toContainText('muted');
  await expect(page.getByTestId('mini-neededShare')).toContainText(/\d+%/);

  // The measurements are recorded with the run: a replay shows the one taken by the replayed update.
  // Saves land one after another; the replay is opened again until the newest save is the one read.
  const row = page.getByTestId('library-row').first();
  await expect(async () => {
    await row.getByTestId('library-replay').click();
    await expect(page.getByTestId('replay-badge')).toBeVisible();
    await expect(gain).toContainText('update 2', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByTestId('replay-update').fill('0');
  await expect(page.getByTestId('replay-update-label')).toHaveText(/^1 \//);
  await expect(gain).toContainText('update 1');
  await page.getByTestId('replay-leave').click();
  await expect(gain).toContainText('update 2');

  const result = await new AxeBuilder({ page }).include('[data-testid="work-curves"]').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  expect(errors).toEqual([]);
});
