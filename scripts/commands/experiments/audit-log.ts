/**
 * The audit log of a recorded run: `npm run audit-log -- --run <file.swarmrun.json.gz> [--update N]
 * [--format csv|jsonl] [--out <file>]`.
 *
 * Every message and attempt of one of the run file's showcase episodes, minute by minute: sender,
 * receiver or board, the interfaces it carried, and whether it was allowed, blocked, went on the
 * unofficial board unseen, or was caught there (src/sim/audit.ts; docs/RUNFILE.md, "The audit
 * log"). The episode is the one recorded at update N, or the last one. Written as CSV (default) or
 * JSON Lines to --out, or to the terminal.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { decodeRunFile } from '../../../src/core/runFile';
import { auditCounts, auditCsv, auditJsonl, auditLog } from '../../../src/sim/audit';
import { choiceFlag, intFlag, parseFlags, pathFlag, readCommandLine, UsageError } from '../../lib/cli';
import { requireOutput } from '../../lib/outputFolder';

const USAGE = `usage: npm run audit-log -- --run <file.swarmrun.json.gz> [--update N] [--format csv|jsonl] [--out <file>]
  --run <file>       a run file (npm run experiment writes DIR/run-seed<n>.swarmrun.json.gz; the app exports them)
  --update <n>       the showcase episode recorded at update n (default: the last one recorded)
  --format <f>       csv (default) or jsonl
  --out <file>       write the log here (default: print it)
  --help             print this help`;

interface Options {
  run: string;
  update?: number;
  format: 'csv' | 'jsonl';
  out?: string;
}

function parseOptions(argv: string[]): Options | 'help' {
  const v = parseFlags(argv, {
    run: { type: 'string' },
    update: { type: 'string' },
    format: { type: 'string', default: 'csv' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help';
  if (v.run === undefined) throw new UsageError('--run <file> is required: the run file whose episode to audit');
  return {
    run: pathFlag('run', v.run),
    update: v.update === undefined ? undefined : intFlag('update', v.update, 0, 1_000_000_000),
    format: choiceFlag('format', v.format, ['csv', 'jsonl'] as const),
    out: v.out === undefined ? undefined : pathFlag('out', v.out),
  };
}

function main(): void {
  const o = readCommandLine('audit-log', USAGE, parseOptions);
  if (o.out) requireOutput('audit-log', 'out', o.out, 'file');
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(o.run);
  } catch (e) {
    process.stderr.write(`audit-log: cannot read ${o.run}: ${(e as Error).message}\n`);
    process.exit(2);
  }
  const decoded = decodeRunFile(bytes);
  if (!decoded.ok) {
    process.stderr.write(`audit-log: ${o.run}: ${decoded.error}\n`);
    process.exit(2);
  }
  const episodes = decoded.run.episodes.items;
  if (!episodes.length) {
    process.stderr.write(`audit-log: ${o.run} holds no recorded episode\n`);
    process.exit(2);
  }
  const episode = o.update === undefined ? episodes[episodes.length - 1] : episodes.find((e) => e.update === o.update);
  if (!episode) {
    const updates = episodes.map((e) => e.update);
    process.stderr.write(
      `audit-log: no episode recorded at update ${o.update}; recorded: ${updates.length > 12 ? `${updates.slice(0, 6).join(', ')}, ..., ${updates.slice(-6).join(', ')}` : updates.join(', ')}\n`,
    );
    process.exit(2);
  }
  const rows = auditLog(episode.events);
  const text = o.format === 'csv' ? auditCsv(rows) : auditJsonl(rows);
  const c = auditCounts(rows);
  const legacy = rows.length > 0 && rows.every((r) => r.carried === null);
  const note = `audit-log: update ${episode.update} (deadline ${episode.tmax} min): ${rows.length} messages and attempts; ${c.allowed} allowed, ${c.blocked} blocked, ${c.unsanctioned} on the unofficial board unseen, ${c.caught} caught${legacy ? ' (a file from before the audit log: what each message carried is unknown)' : ''}\n`;
  if (o.out) {
    writeFileSync(o.out, text);
    process.stderr.write(note.replace(/\n$/, `; written to ${o.out}\n`));
  } else {
    process.stdout.write(text);
    process.stderr.write(note);
  }
}

main();
