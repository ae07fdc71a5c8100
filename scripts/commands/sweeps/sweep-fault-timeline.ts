/**
 * `npm run sweep-fault-timeline -- [--lock-seconds 30] [--seed 8]`: the timeline of the queue's
 * worker-death fault (issue 27), measured at the smoke scale on this machine. It starts a
 * `redis-server` on a free port (no persistence, removed at the end), two workers, and a coordinator
 * for one run (`--claim C1 --claim-scale smoke --seeds SEED --queue ...`); kills the worker that
 * takes the run with SIGKILL as it starts it, and prints when the worker died, when the other one
 * took the run up, when the sweep was done and the time lost. Needs redis-server on the PATH.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intFlag, readCommandLine, parseFlags } from '../../lib/cli';

const USAGE = [
  'Usage: npm run sweep-fault-timeline -- [--lock-seconds N] [--seed N] [--json]',
  '',
  "  --lock-seconds  the workers' --lock-seconds, 1..600 (default 30, the workers' default)",
  '  --seed          the seed of the one C1 smoke run, 0..1000000 (default 8)',
  '  --json          print the timeline as JSON',
].join('\n');

const args = readCommandLine('sweep-fault-timeline', USAGE, (argv) => {
  const v = parseFlags(argv, {
    'lock-seconds': { type: 'string', default: '30' },
    seed: { type: 'string', default: '8' },
    json: { type: 'boolean' },
    help: { type: 'boolean' },
  });
  if (v.help) return 'help';
  return { lockSeconds: intFlag('lock-seconds', v['lock-seconds'], 1, 600), seed: intFlag('seed', v.seed, 0, 1_000_000), json: v.json === true };
});

if (spawnSync('redis-server', ['--version']).status !== 0) {
  process.stderr.write('sweep-fault-timeline: redis-server is not installed (apt-get install redis-server)\n');
  process.exit(2);
}

const root = fileURLToPath(new URL('../../..', import.meta.url));
const t0 = performance.now();
const at = () => (performance.now() - t0) / 1000;
const dir = mkdtempSync(join(tmpdir(), 'swarm-fault-'));
const procs: ChildProcess[] = [];

/** A child whose output is kept; `line(re)` resolves with the time (s since the start) of the first output matching `re`. */
function start(cmd: string, argv: string[]) {
  const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, REDIS_URL: '', TMPDIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  procs.push(child);
  let out = '';
  const waiters: { re: RegExp; resolve: (t: number) => void }[] = [];
  const take = (b: Buffer) => {
    out += b.toString();
    for (const w of waiters.splice(0))
      if (w.re.test(out)) w.resolve(at());
      else waiters.push(w);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    exited,
    get out() {
      return out;
    },
    line: (re: RegExp) => new Promise<number>((resolve) => (re.test(out) ? resolve(at()) : waiters.push({ re, resolve }))),
  };
}

const tsx = (entry: string, argv: string[]) => start(process.execPath, ['--import', 'tsx', join(root, entry), ...argv]);

const port = await new Promise<number>((resolve, reject) => {
  const s = createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});
const url = `redis://127.0.0.1:${port}`;
try {
  const redis = start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  await redis.line(/Ready to accept connections/);
  const lock = ['--queue', url, '--lock-seconds', String(args.lockSeconds)];
  const workers = [tsx('scripts/commands/sweeps/sweep-worker.ts', lock), tsx('scripts/commands/sweeps/sweep-worker.ts', lock)];
  await Promise.all(workers.map((w) => w.line(/serving queue/)));
  const coordinator = tsx('scripts/commands/experiments/experiment.ts', [
    ...['--claim', 'C1', '--claim-scale', 'smoke', '--seeds', String(args.seed), '--quiet'],
    ...['--out', join(dir, 'out'), '--queue', url],
  ]);
  const queued = await coordinator.line(/run\(s\) to queue/);
  const first = await Promise.race(workers.map((w) => w.line(/training \(job run-/).then((t) => ({ w, t }))));
  const started = first.t;
  first.w.child.kill('SIGKILL');
  const died = at();
  const heir = workers.find((w) => w !== first.w)!;
  const stalled = await heir.line(/stalled/);
  const taken = await heir.line(/training \(job run-/);
  const code = await coordinator.exited;
  const done = at();
  if (code !== 0) throw new Error(`the coordinator exited with code ${code}:\n${coordinator.out}`);
  const timeline = {
    lockSeconds: args.lockSeconds,
    seed: args.seed,
    queuedAt: +queued.toFixed(2),
    startedAt: +started.toFixed(2),
    diedAt: +died.toFixed(2),
    stalledAt: +stalled.toFixed(2),
    takenUpAt: +taken.toFixed(2),
    doneAt: +done.toFixed(2),
    /** From the kill to the second worker starting the run: the queue's part of the loss. */
    waitSeconds: +(taken - died).toFixed(2),
    /** What the death cost the sweep: from the first worker starting the run (its work is redone) to the second starting it. */
    lostSeconds: +(taken - started).toFixed(2),
    /** The run itself on the second worker, start to result in the coordinator's cache. */
    runSeconds: +(done - taken).toFixed(2),
  };
  if (args.json) process.stdout.write(JSON.stringify(timeline, null, 1) + '\n');
  else
    process.stdout.write(
      [
        `C1 smoke seed ${args.seed} on one queue, workers at --lock-seconds ${args.lockSeconds} (seconds from the start of this script):`,
        `  ${timeline.queuedAt.toFixed(1).padStart(6)}  the coordinator queued the run`,
        `  ${timeline.startedAt.toFixed(1).padStart(6)}  worker 1 started it`,
        `  ${timeline.diedAt.toFixed(1).padStart(6)}  worker 1 killed (SIGKILL); worker 2 serving since before the run was queued`,
        `  ${timeline.stalledAt.toFixed(1).padStart(6)}  worker 2 found the run stalled (its lock expired) and put it back on the queue`,
        `  ${timeline.takenUpAt.toFixed(1).padStart(6)}  worker 2 started it`,
        `  ${timeline.doneAt.toFixed(1).padStart(6)}  its result in the coordinator's cache; the coordinator exited`,
        `Time lost: ${timeline.lostSeconds.toFixed(1)} s (${timeline.waitSeconds.toFixed(1)} s from the kill to the takeover, plus the ${(timeline.diedAt - timeline.startedAt).toFixed(1)} s worker 1 had trained); the run took ${timeline.runSeconds.toFixed(1)} s on worker 2.`,
      ].join('\n') + '\n',
    );
} finally {
  for (const p of procs) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
