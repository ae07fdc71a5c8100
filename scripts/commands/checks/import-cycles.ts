/**
 * The import graph of src, scripts and e2e (scripts/lib/importGraph.ts): prints its import cycles and
 * every import of a command file (scripts/lib/commands.ts) by a test, an e2e spec or a library module,
 * and exits 1 if there is any. `npm test` runs it.
 *
 *   npm run import-cycles [-- --json <file>] [--quiet]
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseFlags, pathFlag, readCommandLine } from '../../lib/cli';
import { commandFile, COMMANDS } from '../../lib/commands';
import { commandImports, findCycles, readImportGraph } from '../../lib/importGraph';
import { requireOutput } from '../../lib/outputFolder';

const DIRS = ['src', 'scripts', 'e2e'];

const USAGE = `usage: npm run import-cycles -- [--json <file>] [--quiet]
  --json <file>   also write the cycles and the imports of command files to <file> as JSON
  --quiet         print nothing when there is no problem
  --help          print this help`;

const opts = readCommandLine('import-cycles', USAGE, (argv) => {
  const v = parseFlags(argv, { json: { type: 'string' }, quiet: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } });
  if (v.help) return 'help';
  return { json: v.json === undefined ? undefined : pathFlag('json', v.json), quiet: v.quiet };
});
if (opts.json) requireOutput('import-cycles', 'json', opts.json, 'file');

const root = fileURLToPath(new URL('../../..', import.meta.url));
const graph = readImportGraph(root, DIRS);
const cycles = findCycles(graph);
const entries = commandImports(graph, new Set(COMMANDS.map(commandFile)));
const imports = [...graph.values()].reduce((n, t) => n + t.length, 0);
const problems = cycles.length + entries.length;
if (!opts.quiet || problems) {
  const lines = [
    `${DIRS.join(', ')}: ${graph.size} files, ${imports} imports; ${cycles.length} import cycle${cycles.length === 1 ? '' : 's'}, ${entries.length} import${entries.length === 1 ? '' : 's'} of a command file`,
  ];
  for (const c of cycles) lines.push(`  cycle: ${c.join(' -> ')}`);
  for (const [from, to] of entries) lines.push(`  ${from} imports the command ${to}: move what it needs into a library module`);
  (problems ? console.error : console.log)(lines.join('\n'));
}
if (opts.json) writeFileSync(opts.json, JSON.stringify({ files: graph.size, imports, cycles, commandImports: entries }, null, 1) + '\n');
process.exitCode = problems ? 1 : 0;
