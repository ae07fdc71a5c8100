import { expect, test, type Page } from '@playwright/test';

/** A small, fast run: the short coupled tasks (8 -> 24 minutes), 1 task x 2 rollouts per update, whole episodes shown at once. */
const SMALL = 'family=coupled&tmaxStart=8&tmaxEnd=24&tasksPerUpdate=1&groupSize=2&updates=200&seed=5&backend=cpu';

async function ready(page: Page): Promise<void> {
  await expect(page.getByTestId('backend-badge')).not.toHaveText(/Choosing/, { timeout: 60_000 });
  await page.getByTestId('playback-speed').selectOption('0');
}

async function step(page: Page, n: number): Promise<void> {
  await page.getByTestId('step').click();
  await expect(page.getByTestId('update-count')).toHaveText(String(n), { timeout: 60_000 });
}

const PRESETS: { hash: string; name: string; check: (page: Page) => Promise<void> }[] = [
  { hash: 'agents=4', name: 'flat', check: async (page) => expect(page.getByTestId('swimlanes').locator('svg rect').first()).toBeVisible() },
  {
    hash: 'agents=5&structure=ceo&budget=60',
    name: 'ceo',
    check: async (page) => {
      await expect(page.getByTestId('headcount')).toContainText('head count');
      await expect(page.getByTestId('structure-line')).toContainText(/Head count \d+; \d+ of 60 agent-minutes/);
      await expect(page.getByTestId('swimlanes')).toContainText('agent 0 · CEO');
    },
  },
  {
    hash: 'agents=6&structure=islands&islands=3',
    name: 'islands',
    check: async (page) => {
      await expect(page.getByTestId('island-hull')).toHaveCount(3);
      await expect(page.getByTestId('readout-islandBest')).toBeVisible();
    },
  },
  {
    hash: 'agents=4&structure=orchestrator&shaping=0.3',
    name: 'orchestrator',
    check: async (page) => {
      await expect(page.getByTestId('structure-line')).toContainText('Critical steps');
      await expect(page.getByTestId('swimlanes')).toContainText('agent 0 · orch.');
    },
  },
];

for (const p of PRESETS) {
  test(`the ${p.name} structure trains an update and its view appears`, async ({ page }) => {
    await page.goto(`/#${SMALL}&${p.hash}`);
    await ready(page);
    await expect(page.getByTestId('structure')).toHaveValue(p.name);
    await expect(page.getByTestId('structure-help')).toContainText(p.name === 'ceo' ? 'CEO' : p.name.charAt(0).toUpperCase() + p.name.slice(1));
    await step(page, 1);
    await p.check(page);
  });
}

test('choosing a structure in the page starts a fresh run under it', async ({ page }) => {
  await page.goto(`/#${SMALL}&agents=4`);
  await ready(page);
  await step(page, 1);
  await page.getByTestId('structure').selectOption('islands');
  await expect(page.getByTestId('update-count')).toHaveText('–');
  expect(page.url()).toMatch(/structure=islands/);
  await step(page, 1);
  await expect(page.getByTestId('island-hull')).toHaveCount(2);
});

const ABLATIONS: { name: string; on: (page: Page) => Promise<void>; badge: RegExp }[] = [
  { name: 'latency penalty', on: (page) => page.getByTestId('ablation-latency').check(), badge: /latency penalty 0\.5/ },
  { name: 'fixed Tmax', on: (page) => page.getByTestId('ablation-fixed-tmax').check(), badge: /fixed Tmax 24/ },
  {
    name: 'critic + GAE',
    on: async (page) => {
      await page.getByTestId('ablation-critic').check();
      await page.getByTestId('ablation-gamma').fill('0.9');
    },
    badge: /critic \+ GAE \(γ 0\.9, λ 1\)/,
  },
  { name: 'individual rewards', on: async (page) => void (await page.getByTestId('ablation-rewards').selectOption('individual')), badge: /individual rewards/ },
  { name: 'rloo', on: async (page) => void (await page.getByTestId('ablation-advantage').selectOption('rloo')), badge: /rloo/ },
];

for (const a of ABLATIONS) {
  test(`the ${a.name} ablation runs an update and is shown on the curves`, async ({ page }) => {
    await page.goto(`/#${SMALL}&agents=3`);
    await ready(page);
    await page.getByTestId('ablations').locator('summary').click();
    await a.on(page);
    await expect(page.getByTestId('ablation-badge')).toContainText(a.badge);
    await step(page, 1);
    await expect(page.getByTestId('return-path')).toHaveAttribute('d', /^M/);
  });
}

test('the curves overlay a recorded run to compare with, and the organisations race', async ({ page }) => {
  // wasm: the organisations race plays the swarm too, which the cpu backend does slowly.
  await page.goto(`/#${SMALL.replace('backend=cpu', 'backend=wasm')}&agents=3`);
  await ready(page);
  await step(page, 1);
  await step(page, 2);
  await expect(page.getByTestId('library-row')).toHaveCount(1, { timeout: 30_000 });
  const id = await page.getByTestId('overlay-choice').locator('option').nth(1).getAttribute('value');
  await page.getByTestId('overlay-choice').selectOption(id!);
  await expect(page.getByTestId('overlay-path')).toHaveAttribute('d', /^M/);
  await expect(page.getByTestId('overlay-key')).toContainText(/coupled, 3 agents · \d+ \w+ \d\d:\d\d/);

  // A quick race (6 tasks each): the test checks what the race shows, not how it scales.
  await page.getByTestId('race-tasks').selectOption('6');
  await page.getByTestId('race-run').click();
  await expect(page.getByTestId('race-summary')).toContainText('coupled tasks, 3 agents, swarm after 2 updates', { timeout: 60_000 });
  await expect(page.getByTestId('race-times')).toContainText('best-of-N (3 agents)');
  await expect(page.getByTestId('race-anytime').locator('path')).toHaveCount(8);
  await expect(page.getByTestId('race-scaling').locator('circle').first()).toBeVisible();
  await expect(page.getByTestId('inference-scaling')).toBeVisible();
});
