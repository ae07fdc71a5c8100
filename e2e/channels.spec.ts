import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ready, watchErrors } from './helpers';

/**
 * Channels and the unofficial board in the page (sim/channels.ts): the settings, the DM graph's
 * unsanctioned edges, the boards, the work panel's line, the audit log's export, and a replay of a
 * run recorded before the channels, which shows none of it.
 */

/**
 * A small run under the hub policy with a monitored unofficial board: 4 agents on the short coupled
 * tasks, 1 task x 2 rollouts per update, seeded. Agents 1-3 may DM only agent 0, so the untrained
 * swarm's DMs between them are blocked, and its DMs to itself are posts on the unofficial board, every
 * one of them caught (catch rate 1).
 */
const CHANNELS =
  'v=3&family=coupled&tmaxStart=8&tmaxEnd=24&agents=4&tasksPerUpdate=1&groupSize=2&updates=200&seed=5&backend=cpu&channels=hub&sideBoard=monitored&catchRate=1';

async function start(page: Page, hash: string): Promise<void> {
  await page.goto(`/#${hash}`);
  await ready(page);
  // Whole episodes at once: the views show the showcase episode to its end.
  await page.getByTestId('playback-speed').selectOption('0');
}

async function step(page: Page, n: number): Promise<void> {
  await page.getByTestId('step').click();
  await expect(page.getByTestId('update-count')).toHaveText(String(n), { timeout: 60_000 });
}

test('a run under the hub policy with a monitored unofficial board: its settings, the DM graph, the boards and the work panel show the unsanctioned traffic apart', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await start(page, CHANNELS);
  // The settings, read from the link, beside the structure; the monitor's two only while it watches.
  await expect(page.getByTestId('setting-channels')).toHaveValue('hub');
  await expect(page.getByTestId('setting-sideBoard')).toHaveValue('monitored');
  await expect(page.getByTestId('setting-catchRate')).toHaveValue('1');
  await expect(page.getByTestId('setting-catchCost')).toHaveValue('0.05');
  await expect(page.getByTestId('channel-policy')).toHaveText('Plays under hub: DMs only to or from agent 0; everyone posts and reads.');
  await step(page, 1);

  // The DM graph: posts on the unofficial board go to a node of their own, blocked messages are drawn apart.
  const graph = page.getByTestId('dm-graph');
  await expect(graph.getByTestId('dm-side-board')).toHaveCount(1);
  expect(await graph.getByTestId('dm-side-edge').count()).toBeGreaterThan(0);
  expect(await graph.getByTestId('dm-attempt').count()).toBeGreaterThan(0);
  await expect(graph.getByTestId('dm-legend-side')).toBeVisible();
  await expect(graph.getByTestId('dm-legend-attempt')).toBeVisible();
  // Under hub everyone may post: every blocked message is a DM between two agents other than the hub.
  for (const title of await graph.getByTestId('dm-attempt').locator('title').allTextContents())
    expect(title).toMatch(/^agent [123] → agent [123]: \d+ messages? blocked by the channel policy/);
  // Every post was caught (catch rate 1): each poster's line carries the mark, and the board lists them as caught.
  const posters = await graph.getByTestId('dm-side-edge').count();
  await expect(graph.getByTestId('dm-side-caught')).toHaveCount(posters);
  await expect(graph.getByTestId('dm-legend-caught')).toBeVisible();
  const caughtOnGraph = (await graph.getByTestId('dm-side-edge').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-caught'))))).reduce(
    (a, b) => a + b,
    0,
  );
  expect(caughtOnGraph).toBeGreaterThan(0);
  await expect(page.getByTestId('side-feed').locator('.board-row.caught')).toHaveCount(caughtOnGraph);
  await expect(page.getByTestId('side-feed').locator('.board-row.board-side')).toHaveCount(caughtOnGraph);

  // The boards: the unofficial one beside the public one; the blocked attempts listed as such.
  const sideRows = page.getByTestId('side-feed').locator('.board-row.board-side');
  expect(await sideRows.count()).toBeGreaterThan(0);
  await expect(sideRows.first()).toContainText('on the unofficial board');
  const attempts = page.getByTestId('board-feed').locator('.board-row.board-attempt');
  expect(await attempts.count()).toBeGreaterThan(0);
  await expect(attempts.first().locator('.board-tag.blocked')).toHaveText('blocked');
  await expect(attempts.first()).toContainText('blocked by the channel policy, nothing delivered');

  // Looked at by hand (set SIDE_UI_SCREENSHOT to a PNG file name): the stage, then the work panel's line and the settings.
  const shot = process.env.SIDE_UI_SCREENSHOT;
  if (shot) {
    await page.screenshot({ path: shot });
    await graph.screenshot({ path: shot.replace(/\.png$/, '-dm.png') });
    await page.getByTestId('message-board').screenshot({ path: shot.replace(/\.png$/, '-board.png') });
  }

  // The work panel (below the stage: drawn once in sight): a line per update, and the four small charts of a monitored side board under hub.
  await page.getByTestId('work-curves').scrollIntoViewIfNeeded();
  const line = page.getByTestId('unsanctioned-line');
  await expect(line).toHaveText(/^Update 1, per episode: \d+\.\d posts on the unofficial board \(\d+% of messages\), \d+\.\d caught; \d+\.\d messages blocked/);
  for (const k of ['sidePosts', 'sideShare', 'caught', 'attempts']) await expect(page.getByTestId('unsanctioned').getByTestId(`mini-${k}`)).toBeVisible();
  if (shot) {
    await page.getByTestId('unsanctioned').screenshot({ path: shot.replace(/\.png$/, '-work.png') });
    await page.getByTestId('channel-settings').screenshot({ path: shot.replace(/\.png$/, '-settings.png') });
  }

  const result = await new AxeBuilder({ page })
    .include('[data-testid="dm-graph"]')
    .include('[data-testid="message-board"]')
    .include('[data-testid="unsanctioned"]')
    .include('[data-testid="channel-settings"]')
    .withTags(['wcag2a', 'wcag2aa'])
    .analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // Changing the unofficial board is a fresh run under it; the monitor's settings go with the monitor.
  await page.getByTestId('setting-sideBoard').selectOption('open');
  await expect(page.getByTestId('update-count')).toHaveText('–');
  await expect(page.getByTestId('setting-catchRate')).toHaveCount(0);
  expect(page.url()).toMatch(/sideBoard=open/);
  expect(errors).toEqual([]);
});

test("the showcase episode's audit log downloads as CSV and JSONL, a row for every message and blocked attempt the board lists", async ({ page }) => {
  const errors = watchErrors(page);
  await start(page, CHANNELS);
  await step(page, 1);
  const audit = page.getByTestId('audit-export');
  await expect(audit).toBeVisible();

  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-csv').click()]);
  expect(csvDownload.suggestedFilename()).toBe('audit-update-1.csv');
  const lines = readFileSync((await csvDownload.path())!, 'utf8')
    .trimEnd()
    .split('\n');
  expect(lines[0]).toBe('minute,from,to,kind,carried,useful,status');
  const rows = lines.slice(1).map((l) => l.split(','));
  for (const r of rows) {
    expect(r).toHaveLength(7);
    expect(['allowed', 'unsanctioned', 'caught', 'blocked']).toContain(r[6]);
  }

  // As many rows as the page says, and as the boards list messages (DMs, posts, unofficial posts) and blocked attempts.
  await expect(audit).toHaveAttribute('data-rows', String(rows.length));
  const board = page.getByTestId('board-feed');
  const side = page.getByTestId('side-feed');
  const dms = await board.locator('.board-row.board-dm').count();
  const posts = await board.locator('.board-row.board-post').count();
  const blocked = await board.locator('.board-row.board-attempt').count();
  const unofficial = await side.locator('.board-row.board-side').count();
  const caught = await side.locator('.board-row.board-side.caught').count();
  expect(rows.length).toBe(dms + posts + blocked + unofficial);
  expect(rows.filter((r) => r[6] === 'blocked')).toHaveLength(blocked);
  expect(rows.filter((r) => r[3] === 'side')).toHaveLength(unofficial);
  expect(rows.filter((r) => r[6] === 'caught')).toHaveLength(caught);
  expect(rows.filter((r) => r[3] === 'dm')).toHaveLength(dms);
  expect(blocked).toBeGreaterThan(0);
  expect(unofficial).toBeGreaterThan(0);
  // Under hub, a blocked DM goes between two agents that are not the hub.
  for (const r of rows.filter((x) => x[6] === 'blocked')) expect(r[1] !== '0' && r[2] !== '0').toBe(true);
  await expect(page.getByTestId('audit-summary')).toContainText(`${rows.length} rows`);

  const [jsonlDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-jsonl').click()]);
  expect(jsonlDownload.suggestedFilename()).toBe('audit-update-1.jsonl');
  const objects = readFileSync((await jsonlDownload.path())!, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { t: number; status: string });
  expect(objects.map((o) => o.status)).toEqual(rows.map((r) => r[6]));
  expect(objects.map((o) => String(o.t))).toEqual(rows.map((r) => r[0]));
  expect(errors).toEqual([]);
});

test('a replay of a CEO run recorded before the channels opens and shows no unsanctioned traffic', async ({ page }) => {
  const errors = watchErrors(page);
  await start(page, 'v=3&family=coupled&tmaxStart=8&tmaxEnd=24&agents=3&tasksPerUpdate=1&groupSize=2&updates=200&seed=5&backend=cpu');
  await page.getByTestId('library-import').setInputFiles({
    name: 'old-ceo.swarmrun.json.gz',
    mimeType: 'application/gzip',
    buffer: readFileSync('src/core/fixtures/v1-1a6ef4a-ceo.swarmrun.json.gz'),
  });
  const row = page.getByTestId('library-row').first();
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByTestId('library-replay').click();
  await expect(page.getByTestId('replay-badge')).toBeVisible();
  await expect(page.getByTestId('board-feed')).toBeVisible();
  await expect(page.getByTestId('audit-export')).toBeVisible();
  await expect(page.getByTestId('dm-graph').locator('.dm-node').first()).toBeVisible();
  await page.getByTestId('work-curves').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('mini-messages')).toBeVisible();
  // Recorded before the channels: it talked openly, and there was no unofficial board.
  await expect(page.getByTestId('unsanctioned')).toHaveCount(0);
  await expect(page.getByTestId('side-feed')).toHaveCount(0);
  await expect(page.getByTestId('dm-side-board')).toHaveCount(0);
  await expect(page.getByTestId('dm-attempt')).toHaveCount(0);
  await expect(page.getByTestId('dm-legend-attempt')).toHaveCount(0);
  expect(errors).toEqual([]);
});
