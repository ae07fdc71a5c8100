/** A command line's `--set` flag: run settings written as the app's URL hash writes them. */
import { configFromStrings, type Config } from '../../src/rl/config';
import { checkSettings } from '../../src/rl/settingsCheck';
import { UsageError } from './cli';

/** `--set`: settings as the URL hash writes them, on top of `base`; an unknown or out-of-range one is a usage error. */
export function settingsFlag(text: string, base: Config): Config {
  const values: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text.replaceAll('+', '%2B'))) values[k] = v;
  const { config, issues } = configFromStrings(values, 'strict', base);
  const check = checkSettings(config, (k) => k);
  const errors = [...issues.map((i) => `${i.key}: ${i.message}`), ...check.errors];
  if (errors.length) throw new UsageError(`--set: ${errors.join('; ')}`);
  for (const w of check.warnings) process.stderr.write(`warning: ${w}\n`);
  return config;
}
