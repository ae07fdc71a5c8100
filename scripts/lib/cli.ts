import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line a script cannot run: reported with its usage and exit code 2. */
export class UsageError extends Error {}

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

/**
 * The flags of `argv` read with `node:util`'s parseArgs (strict, no positional arguments); a flag it
 * cannot read becomes a UsageError (message, usage, exit code 2 through `readCommandLine`).
 */
export function parseFlags<const O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs<{ args: string[]; strict: true; allowPositionals: false; options: O }>({ args: argv, strict: true, allowPositionals: false, options }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
