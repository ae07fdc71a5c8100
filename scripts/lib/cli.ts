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
