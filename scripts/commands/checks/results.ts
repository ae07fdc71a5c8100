/**
 * Do the docs' measured figures say what their JSON files say? Reads every figure written between
 * `<!-- result: FILE#PATH | FORMAT -->` and `<!-- /result -->` (scripts/lib/resultMarkers.ts;
 * CONTRIBUTING.md, "A figure from a JSON file") and compares it with its file.
 *
 *   npm run results -- --check [--doc docs/RESULTS.md]   # one line per figure that disagrees or cannot be read; exit code 1
 *   npm run results -- --write [--doc docs/RESULTS.md]   # rewrites the figures from their files
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFlags, pathFlag, readCommandLine, UsageError } from '../../lib/cli';
import { checkMarkers, writeMarkers, type MarkerProblem } from '../../lib/resultMarkers';

const USAGE = `usage: npm run results -- --check | --write [--doc docs/RESULTS.md]
  --check        compare every marked figure of the doc with its JSON file; exit code 1 where one disagrees or cannot be read
  --write        rewrite the doc's marked figures from their JSON files
  --doc <file>   the Markdown page (default docs/RESULTS.md; repeat the command for another)`;

const root = fileURLToPath(new URL('../../..', import.meta.url));

function parseOptions(argv: string[]) {
  const v = parseFlags(argv, {
    check: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    doc: { type: 'string', default: 'docs/RESULTS.md' },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help' as const;
  if (v.check === v.write) throw new UsageError('give one of --check and --write');
  return { mode: v.check ? ('check' as const) : ('write' as const), doc: pathFlag('doc', v.doc) };
}

const o = readCommandLine('results', USAGE, parseOptions);
const docPath = resolve(root, o.doc);
if (!existsSync(docPath)) {
  console.error(`results: --doc ${o.doc}: no such file`);
  process.exit(2);
}
const page = readFileSync(docPath, 'utf8');
const read = (file: string) => {
  const path = resolve(root, file);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
};
const say = (p: MarkerProblem) => console.error(`${o.doc}:${p.line}: ${p.figure}: ${p.message}`);

if (o.mode === 'check') {
  const { count, problems } = checkMarkers(page, read);
  problems.forEach(say);
  if (problems.length) {
    console.error(
      `results: ${problems.length} of ${count} figure(s) in ${o.doc} disagree with their files or cannot be read (npm run results -- --write rewrites them)`,
    );
    process.exit(1);
  }
  console.log(`results: the ${count} figure(s) in ${o.doc} agree with their files`);
} else {
  const { page: next, changed, problems } = writeMarkers(page, read);
  problems.forEach(say);
  if (changed) writeFileSync(docPath, next);
  console.log(`results: rewrote ${changed} figure(s) in ${o.doc}`);
  if (problems.length) process.exit(1);
}
