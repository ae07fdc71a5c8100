/** What bench:ui's measurements share: the preview server and browser of the run, a page opened on a probe, the update readout, the config a hash selects. */
import type { Page } from '@playwright/test';
import type { PreviewHarness } from '../previewHarness';
import { configFromStrings, defaultConfig, linkDefaults, linkFormat, LINK_VERSION, SCHEMA, type Config } from '../../../src/rl/config';
import type { Options } from './options';

/** The preview server and browser of this run (built once the port is known). */
export let harness: PreviewHarness | undefined;

/** Makes `h` the harness the measurements open their pages through (bench:ui's main, once it has made it). */
export function useHarness(h: PreviewHarness): void {
  harness = h;
}

// ---------------------------------------------------------------- measurement

/** The update readout as a number: how many updates are done (it shows the latest, counting from 1), 0 before the first ('–'). */
export async function updateIndex(page: Page): Promise<number> {
  const text = ((await page.locator('[data-testid=update-count]').textContent()) ?? '').trim();
  if (text === '' || text === '–' || text === '-') return 0;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`update count is not a number: "${text}"`);
  return n;
}

export const r1 = (x: number) => Math.round(x * 10) / 10;

export type BenchBrowser = Awaited<ReturnType<PreviewHarness['launch']>>;

/** A page in a fresh context of `browser` that reports its errors and runs `probe` before the app's own script, and the app's address for `hash`. */
export async function newBenchPage(browser: BenchBrowser, opts: Options, probe: string, hash: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') console.error(`[console error] ${m.text()}`);
  });
  await page.addInitScript({ content: probe });
  const search = opts.threads === 'auto' ? '' : `?threads=${opts.threads}`;
  return { page, url: `${harness!.origin}/${search}#${hash}` };
}

/** A fresh browser with one bench page (newBenchPage) at `opts.hash`. */
export async function openBenchPage(opts: Options, probe: string) {
  const browser = await harness!.launch();
  const { page, url } = await newBenchPage(browser, opts, probe, opts.hash);
  console.log(`opening ${url} (${browser.version()})`);
  return { browser, page, url };
}

/**
 * The run's settings as the page reads them from `hash` (view keys and the backend ignored): over
 * the defaults of the hash's link format (`linkDefaults`; an unreadable one as today's), as
 * src/store/urlConfig.ts reads a link; no hash at all is today's defaults.
 */
export function hashConfig(hash: string): Config {
  if (!hash) return defaultConfig();
  const values: Record<string, string> = {};
  const params = new URLSearchParams(hash.replaceAll('+', '%2B'));
  for (const [k, v] of params) if (Object.hasOwn(SCHEMA, k)) values[k] = v;
  const base = { ...defaultConfig(), ...linkDefaults(linkFormat(params.get('v')) ?? LINK_VERSION) };
  return configFromStrings(values, 'clamp', base).config;
}

/** `hash` with today's link format, so the page reads its lesson step numbers as this build numbers them. */
export function currentFormat(hash: string): string {
  const params = new URLSearchParams(hash.replaceAll('+', '%2B'));
  return params.has('v') ? hash : `v=${LINK_VERSION}${hash ? `&${hash}` : ''}`;
}
