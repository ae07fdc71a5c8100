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

/** `--flag -5` as `--flag=-5` for a flag that takes a value, so a negative number reaches the range check. */
function joinNegatives(argv: string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') && !argv[i].includes('=') ? argv[i].slice(2) : null;
    if (name !== null && Object.hasOwn(options, name) && options[name].type === 'string' && /^-\d/.test(argv[i + 1] ?? '')) out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]);
  }
  return out;
}

/**
 * The flags of `argv` read with `node:util`'s parseArgs (strict, no positional arguments); a flag it
 * cannot read becomes a UsageError (message, usage, exit code 2 through `readCommandLine`).
 */
export function parseFlags<const O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs<{ args: string[]; strict: true; allowPositionals: false; options: O }>({ args: joinNegatives(argv, options), strict: true, allowPositionals: false, options }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
