import { expect, type Page } from '@playwright/test';

/**
 * A small, fast run: 3 agents, 1 task x 2 rollouts per update, on the short coupled tasks
 * (8 -> 24 minutes; episodes end when every test passes), so episodes and the organisations race
 * stay short. The default long-planned family has its own test (app.spec.ts).
 */
export const SMALL = 'family=coupled&tmaxStart=8&tmaxEnd=24&agents=3&tasksPerUpdate=1&groupSize=2&updates=200&seed=5';

/** The small run with some of its settings changed (e.g. more updates, so that it is still training when a test looks). */
export function smallWith(changes: Readonly<Record<string, number>>): string {
  const p = new URLSearchParams(SMALL);
  for (const [k, v] of Object.entries(changes)) {
    if (!p.has(k)) throw new Error(`the small run has no setting ${k}`);
    p.set(k, String(v));
  }
  return p.toString();
}

/** Collects console errors and uncaught page errors, to assert there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Waits until the worker has chosen its backend (the badge says which). */
export async function ready(page: Page): Promise<void> {
  await expect(page.getByTestId('backend-badge')).not.toHaveText(/Choosing/, { timeout: 60_000 });
}
