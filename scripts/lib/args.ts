/** Flags as given on the command line: `--key value`, `--key=value`, or a bare `--flag`. */
export interface ParsedArgs {
  flags: Map<string, string>;
  /** Bare flags (no value followed). */
  bare: Set<string>;
  positional: string[];
}

/** Splits argv into flags; a flag followed by another flag (or nothing) is bare. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags = new Map<string, string>();
  const bare = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    if (eq > 0) {
      flags.set(a.slice(2, eq), a.slice(eq + 1));
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      flags.set(a.slice(2), argv[++i]);
    } else {
      bare.add(a.slice(2));
      flags.set(a.slice(2), '');
    }
  }
  return { flags, bare, positional };
}

/** camelCase -> kebab-case, e.g. tmaxStart -> tmax-start. */
export function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

/** kebab-case -> camelCase. */
export function camel(s: string): string {
  return s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
