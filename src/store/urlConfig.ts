import { configFromStrings, configToStrings, defaultConfig, type Config, type ConfigIssue } from '../rl/config';
import { BACKENDS, type BackendChoice } from '../worker/protocol';
import { defaultView, VIEW_KEYS, viewFromValues, viewToValues, type ViewSettings } from './view';

/** Longest hash the app reads; anything longer is treated as garbage. */
const MAX_HASH = 4000;

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
  const r = configFromStrings(values, 'clamp');
  return { config: r.config, issues: [...issues, ...v.issues, ...r.issues], backend, view: v.view };
}

/**
 * The hash that reproduces `config` (only fields that differ from the defaults, plus the seed), the
 * backend if one was chosen by hand, and how the page is shown (presenter, embed, lesson step).
 */
export function hashFromConfig(config: Config, backend: BackendChoice = 'auto', view: ViewSettings = defaultView()): string {
  const values: Record<string, string> = { ...configToStrings(config), seed: String(config.seed) };
  if (backend !== 'auto') values.backend = backend;
  Object.assign(values, viewToValues(view));
  return (
    '#' +
    Object.entries(values)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join('&')
  );
}
