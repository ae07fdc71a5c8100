import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readNumber, readNumberList, type NumberRule } from '../../src/rl/readNumber';

/**
 * The command line of every script: `node:util`'s parseArgs, wrapped once. Flags are declared
 * (`--name value`, `--name=value`, a bare `--flag` for a boolean), anything else is refused with a
 * one-line message: an unknown flag, a missing value, a value given to a boolean, a stray argument.
 * The checkers below read a flag's text as a number, a list of numbers, one of a few words or a
 * path, each with the same wording across the scripts.
 */

/** A command line a script cannot run: reported with its usage and exit code 2. */
export class UsageError extends Error {}

/** The declared flags of a script, as `node:util`'s parseArgs takes them (long names only). */
export type FlagOptions = NonNullable<ParseArgsConfig['options']>;

/** The values parseArgs gives for `O`: a string or a boolean per declared flag, undefined when absent without a default. */
export type FlagValues<O extends FlagOptions> = ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: false; options: O }>>['values'];

/** One flag the command line got wrong; `flag` is the flag as typed (e.g. `--agentz`), or the stray argument. */
export interface FlagProblem {
  kind: 'unknown' | 'needs-value' | 'no-value' | 'positional';
  flag: string;
  message: string;
}

/** A value that reads as a negative number (`-5`, `-0.5`), so `--flag -5` is a value, not a flag. */
const NEGATIVE = /^-\d|^-\.\d/;

/**
 * Reads `argv` against the declared `options` and returns the values with every problem found, in
 * order (for a script that reports all of them at once). An unknown flag swallows the word after it,
 * so `--agentz 3` is one problem, not two.
 */
export function readFlags<const O extends FlagOptions>(argv: readonly string[], options: O): { values: FlagValues<O>; problems: FlagProblem[] } {
  const declared = (name: string) => Object.hasOwn(options, name);
  // `--flag -5` as `--flag=-5` for a flag that takes a value, so a negative number reaches its range check.
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : null;
    if (name !== null && declared(name) && options[name].type === 'string' && NEGATIVE.test(argv[i + 1] ?? '')) args.push(`${a}=${argv[++i]}`);
    else args.push(a);
  }
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  const values: Record<string, string | boolean> = Object.create(null) as Record<string, string | boolean>;
  for (const [name, o] of Object.entries(options)) if (o.default !== undefined) values[name] = o.default as string | boolean;
  const problems: FlagProblem[] = [];
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t];
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      problems.push({ kind: 'positional', flag: token.value, message: `unexpected argument "${token.value}" (flags start with --)` });
      continue;
    }
    const shown = token.rawName;
    // `--no-name` turns off a boolean flag `name` (one whose default may be on).
    const negated = token.name.startsWith('no-') ? token.name.slice(3) : '';
    if (negated && !declared(token.name) && declared(negated) && options[negated].type === 'boolean' && shown.startsWith('--')) {
      if (token.inlineValue) problems.push({ kind: 'no-value', flag: shown, message: `${shown} takes no value` });
      else values[negated] = false;
      continue;
    }
    if (!declared(token.name) || !shown.startsWith('--')) {
      problems.push({ kind: 'unknown', flag: shown, message: `unknown flag ${shown}` });
      const next = tokens[t + 1];
      if (token.value === undefined && next?.kind === 'positional' && next.index === token.index + 1) t++;
      continue;
    }
    if (options[token.name].type === 'boolean') {
      if (token.inlineValue) problems.push({ kind: 'no-value', flag: shown, message: `${shown} takes no value` });
      else values[token.name] = true;
      continue;
    }
    // A string flag that took the next flag as its value (`--out --quiet`) or got none at the end.
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-') && !NEGATIVE.test(token.value))) {
      problems.push({ kind: 'needs-value', flag: shown, message: `${shown} needs a value` });
      continue;
    }
    values[token.name] = token.value;
  }
  return { values: values as FlagValues<O>, problems };
}

/**
 * The flags of `argv` (strict, no positional arguments); the first problem becomes a UsageError
 * (message, usage, exit code 2 through `readCommandLine`). A `--help` among them wins over problems.
 */
export function parseFlags<const O extends FlagOptions>(argv: readonly string[], options: O): FlagValues<O> {
  const { values, problems } = readFlags(argv, options);
  const help = Object.hasOwn(options, 'help') && (values as Record<string, unknown>).help === true;
  if (problems.length && !help) throw new UsageError(problems[0].message);
  return values;
}

/**
 * Reads the command line with `parse`. A UsageError prints `name: message` and the usage and exits
 * with code 2; `--help` (parse returns 'help') prints the usage and exits with 0.
 */
export function readCommandLine<T>(name: string, usage: string, parse: (argv: string[]) => T | 'help'): T {
  let parsed: T | 'help';
  try {
    parsed = parse(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${name}: ${err.message}\n${usage}`);
    process.exit(2);
  }
  if (parsed === 'help') {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}

/** `--name`'s text as an integer from `min` to `max`, e.g. `--agents: "0x8" is not an integer from 1 to 16`. */
export function intFlag(name: string, text: string, min: number, max: number): number {
  return numberFlag(name, text, { kind: 'int', min, max });
}

/** `--name`'s text as a number obeying `rule` (an integer or a real, within its range). */
export function numberFlag(name: string, text: string, rule: NumberRule): number {
  const r = readNumber(text, rule);
  if (!r.ok) throw new UsageError(`--${name}: ${r.message}`);
  return r.value;
}

/** `--name`'s text as a comma-separated list of integers from `min` to `max`, e.g. `--scaling 1,2,4`. */
export function intListFlag(name: string, text: string, min: number, max: number): number[] {
  const r = readNumberList(text, { kind: 'int', min, max });
  if (!r.ok) throw new UsageError(`--${name}: ${r.message}`);
  return r.values;
}

/** `--name`'s text as one of `choices`, e.g. `--backend: "gpu" is not one of cpu, wasm`. */
export function choiceFlag<const T extends string>(name: string, text: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(text)) throw new UsageError(`--${name}: "${text}" is not one of ${choices.join(', ')}`);
  return text as T;
}

/** `--name`'s text as a file or folder name: not empty (`--json=` is refused, not read as "no file"). */
export function pathFlag(name: string, text: string, what = 'a file name'): string {
  if (!text.trim()) throw new UsageError(`--${name} needs ${what}, not an empty text`);
  return text;
}

/** Runs `read` and returns its value, or records its UsageError's message in `errors` (for a script that reports every problem at once). */
export function collect<T>(errors: string[], read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    errors.push(err.message);
    return undefined;
  }
}

/** camelCase -> kebab-case, e.g. tmaxStart -> tmax-start (a config key as a flag). */
export function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

/** kebab-case -> camelCase, e.g. tmax-start -> tmaxStart (a flag as a config key). */
export function camel(s: string): string {
  return s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
