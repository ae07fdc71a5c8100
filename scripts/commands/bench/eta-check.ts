/**
 * How honest the command line's ETA is: `script -qfc "npm run experiment -- ..." /dev/null | npx tsx
 * scripts/commands/bench/eta-check.ts [--json <file>]`.
 *
 * Reads a progress bar's output (scripts/lib/progress.ts) as a terminal gets it (`script` gives the
 * command a terminal, so the bar redraws after every update), notes when each redraw arrived, and
 * at the end compares the ETA on screen 10, 30 and 60 s after the first redraw with the time the
 * training really had left then (until the redraw of the last update). It prints numbers; it
 * asserts nothing. Exit code 2 on a bad command line, 1 when no bar reached its last update.
 */
import { writeFileSync } from 'node:fs';
import { parseFlags, pathFlag, readCommandLine } from '../../lib/cli';
import { requireOutput } from '../../lib/outputFolder';
import { timeLeftErrors, type TimeLeftReading } from '../../lib/uiLearn';

const USAGE = `usage: script -qfc "npm run experiment -- <flags>" /dev/null | npx tsx scripts/commands/bench/eta-check.ts [--json <file>]
  --json <file>   also write the readings and errors to <file>
  --help          print this help`;

const AT = [10, 30, 60];

/** "1:15" -> 75, "1:01:40" -> 3700; null for "--:--". */
function parseClock(text: string): number | null {
  const m = /^(?:(\d+):)?(\d+):(\d\d)$/.exec(text);
  return m ? Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
}

const opts = readCommandLine('eta-check', USAGE, (argv) => {
  const v = parseFlags(argv, { json: { type: 'string' }, help: { type: 'boolean', default: false } });
  if (v.help) return 'help';
  return { json: v.json === undefined ? undefined : pathFlag('json', v.json) };
});
if (opts.json) requireOutput('eta-check', 'json', opts.json, 'file');

const readings: (TimeLeftReading & { done: number; total: number })[] = [];
let t0: number | null = null;
let rest = '';
const BAR = /(\d+)\/(\d+)\s+[\d.]+ upd\/s\s+ETA (\S+)/;
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const now = performance.now();
  const parts = (rest + chunk).split(/[\r\n]/);
  rest = parts.pop() ?? '';
  for (const line of parts) {
    const m = BAR.exec(line);
    if (!m) continue;
    t0 ??= now;
    readings.push({ t: (now - t0) / 1000, text: m[3], seconds: parseClock(m[3]), done: Number(m[1]), total: Number(m[2]) });
  }
});
process.stdin.on('end', () => {
  const end = readings.find((r) => r.done === r.total);
  if (!end) {
    console.error('eta-check: no progress bar reached its last update');
    process.exit(1);
  }
  const errors = timeLeftErrors(readings, end.t, AT);
  console.log(`training ran ${end.t.toFixed(1)} s from the first redraw (update ${readings[0].done}) to update ${end.total}`);
  for (const e of errors)
    console.log(
      `ETA at ${String(e.at).padStart(2)} s  ${e.error === null ? 'no reading' : `said ${e.text} (${e.shown} s), really ${e.actual!.toFixed(1)} s: error ${(100 * e.error).toFixed(0)}%`}`,
    );
  if (opts.json) writeFileSync(opts.json, JSON.stringify({ end: end.t, errors, readings }, null, 2) + '\n');
});
