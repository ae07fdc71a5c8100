import { configFromStrings, configToStrings, defaultConfig, linkDefaults, linkFormat, LINK_VERSION, type Config, type ConfigIssue } from '../rl/config';
import { LESSON_IDS, LESSON_V1_IDS, LESSON_V2_IDS } from '../core/lesson';
import { BACKENDS, type BackendChoice } from '../worker/protocol';
import { defaultView, VIEW_KEYS, viewFromValues, viewToValues, type ViewSettings } from './view';

/** Longest hash the app reads; anything longer is treated as garbage. */
const MAX_HASH = 4000;

/**
 * The link format the app writes (`v=4`). Older links are read over the defaults they were written
 * under, so each opens the run it always opened: a `v=3` link was written when the default run was
 * 300 updates of 4 tasks x 8 rollouts (rl/config `LINK_V3_DEFAULTS`); a `v=2` link also before the
 * channel policies (`LINK_V2_DEFAULTS`: everyone talks openly); a link without `v` also before the
 * default sprint changed (`LINK_V1_DEFAULTS` as well).
 */
export { LINK_VERSION };

/** The lesson's step ids in link formats that numbered its steps otherwise: seven steps in format 1, eight in format 2 (no unofficial board). */
const OLDER_LESSONS: Record<number, readonly (typeof LESSON_IDS)[number][]> = { 1: LESSON_V1_IDS, 2: LESSON_V2_IDS };

/**
 * Reads a config from a URL hash like `#family=search&agents=4`. Unknown keys are dropped, bad values
 * clamped or replaced by defaults, and every change is reported, so a hostile link still opens.
 */
export function configFromHash(hash: string): { config: Config; issues: ConfigIssue[]; backend: BackendChoice; view: ViewSettings } {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!text) return { config: defaultConfig(), issues: [], backend: 'auto', view: defaultView() };
  if (text.length > MAX_HASH)
    return {
      config: defaultConfig(),
      issues: [{ key: '#', message: `the link's settings are too long (${text.length} characters) and were ignored` }],
      backend: 'auto',
      view: defaultView(),
    };
  // No prototype: a key such as __proto__ or constructor is an ordinary (unknown) key here.
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  const issues: ConfigIssue[] = [];
  // A '+' stays a plus (the hash is no form's query string, where it would read as a space).
  for (const [key, value] of new URLSearchParams(text.replaceAll('+', '%2B'))) {
    // URLSearchParams decodes a broken escape (e.g. `%E0%A4%A`) as U+FFFD instead of failing.
    if (key.includes('\uFFFD') || value.includes('\uFFFD')) {
      issues.push({ key: key.slice(0, 40), message: 'is not valid URL encoding and was ignored' });
      continue;
    }
    values[key] = value;
  }
  let backend: BackendChoice = 'auto';
  if (Object.hasOwn(values, 'backend')) {
    const b = values.backend;
    if (b === 'auto' || (BACKENDS as readonly string[]).includes(b)) backend = b as BackendChoice;
    else issues.push({ key: 'backend', message: `"${b}" is not one of auto, ${BACKENDS.join(', ')}` });
    delete values.backend;
  }
  const viewValues: Record<string, string> = {};
  for (const k of VIEW_KEYS) {
    if (k in values) {
      viewValues[k] = values[k];
      delete values[k];
    }
  }
  const v = viewFromValues(viewValues);
  let format = linkFormat(Object.hasOwn(values, 'v') ? values.v : undefined);
  if (format === null) {
    issues.push({ key: 'v', message: `link format "${values.v.slice(0, 20)}" is not one this app reads (2 to ${LINK_VERSION}); read as ${LINK_VERSION}` });
    format = LINK_VERSION;
  }
  delete values.v;
  const base = { ...defaultConfig(), ...linkDefaults(format) };
  // Step N of a link whose lesson was numbered otherwise is the step of the same name now.
  const ids = OLDER_LESSONS[format];
  const id = ids === undefined || v.view.lesson === null ? undefined : ids[v.view.lesson - 1];
  if (id !== undefined) v.view.lesson = LESSON_IDS.indexOf(id) + 1;
  const r = configFromStrings(values, 'clamp', base);
  return { config: r.config, issues: [...issues, ...v.issues, ...r.issues], backend, view: v.view };
}

/**
 * The hash that reproduces `config` (the link format, only fields that differ from the defaults,
 * plus the seed), the backend if one was chosen by hand, and how the page is shown (presenter,
 * embed, lesson step).
 */
export function hashFromConfig(config: Config, backend: BackendChoice = 'auto', view: ViewSettings = defaultView()): string {
  const values: Record<string, string> = { v: String(LINK_VERSION), ...configToStrings(config), seed: String(config.seed) };
  if (backend !== 'auto') values.backend = backend;
  Object.assign(values, viewToValues(view));
  return (
    '#' +
    Object.entries(values)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join('&')
  );
}
