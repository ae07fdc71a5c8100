/**
 * `npm run queue-vs-jobs -- --out DIR [--claim C1] [--claim-scale full|smoke] [--workers 2]`: one
 * claim trained twice from nothing on this machine (issue 27), first with `--jobs N`, then through
 * the BullMQ queue with N `npm run sweep-worker` processes (a `redis-server` on a free port, started
 * and removed by this script), into fresh folders under DIR. It prints and writes to
 * `DIR/comparison.json` whether the two give identical results (every cached run field by field but
 * its training wall-clock, and the verdict), the wall-clock of both, and the queue's overhead per run
 * from the coordinator's status file (BullMQ's job times against the workers' training children).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { choiceFlag, intFlag, parseFlags, readCommandLine, UsageError } from './lib/cli';
import type { SweepStatus } from './claims/sweepStatus';

const USAGE = [
  'Usage: npm run queue-vs-jobs -- --out DIR [--claim C1] [--claim-scale full|smoke] [--workers N]',
  '',
  '  --out          a new or empty folder: DIR/jobs, DIR/queue, DIR/queue-status.json, DIR/comparison.json',
  '  --claim        the claim to train (default C1)',
  '  --claim-scale  full (default) or smoke',
  '  --workers      --jobs N and N workers, 1..16 (default 2)',
].join('\n');

const args = readCommandLine('queue-vs-jobs', USAGE, (argv) => {
  const v = parseFlags(argv, {
    out: { type: 'string' },
    claim: { type: 'string', default: 'C1' },
    'claim-scale': { type: 'string', default: 'full' },
    workers: { type: 'string', default: '2' },
    help: { type: 'boolean' },
  });
  if (v.help) return 'help';
  if (!v.out) throw new UsageError('--out is required: a new or empty folder (not results/claims, which holds the cache)');
  if (existsSync(v.out) && readdirSync(v.out).length) throw new UsageError(`--out: ${v.out} is not empty: give a fresh folder`);
  return {
    out: resolve(v.out),
    claim: v.claim,
    scale: choiceFlag('claim-scale', v['claim-scale'], ['full', 'smoke'] as const),
    workers: intFlag('workers', v.workers, 1, 16),
  };
});

if (spawnSync('redis-server', ['--version']).status !== 0) {
  process.stderr.write('queue-vs-jobs: redis-server is not installed (apt-get install redis-server)\n');
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const EXPERIMENT = join(root, 'scripts/experiment.ts');
const WORKER = join(root, 'scripts/sweep-worker.ts');
const say = (line: string) => process.stderr.write(`queue-vs-jobs: ${line}\n`);
const procs: ChildProcess[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'swarm-qvj-'));

/** Starts a child with its output collected (stderr also copied here with a prefix); resolves on exit. */
function start(cmd: string, argv: string[], tag: string) {
  const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, REDIS_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  procs.push(child);
  let out = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  const take = (b: Buffer) => {
    out += b.toString();
    for (const l of b.toString().split('\n').filter(Boolean)) process.stderr.write(`  [${tag}] ${l}\n`);
    for (const w of waiters.splice(0))
      if (w.re.test(out)) w.resolve();
      else waiters.push(w);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  return {
    child,
    exited: new Promise<number | null>((r) => child.once('close', (code) => r(code))),
    get out() {
      return out;
    },
    line: (re: RegExp) => new Promise<void>((r) => (re.test(out) ? r() : waiters.push({ re, resolve: r }))),
  };
}

const tsx = (entry: string, argv: string[], tag: string) => start(process.execPath, ['--import', 'tsx', entry, ...argv], tag);

/** Runs a coordinator to its end; its wall-clock in seconds. */
async function timed(argv: string[], tag: string): Promise<number> {
  const t = performance.now();
  const p = tsx(EXPERIMENT, argv, tag);
  const code = await p.exited;
  if (code !== 0) throw new Error(`${tag} exited with code ${code}`);
  return (performance.now() - t) / 1000;
}

/** The cached run records of `dir` by file name, and their training seconds. */
function records(dir: string): { runs: Record<string, unknown>; trainSeconds: Record<string, number> } {
  const cache = join(dir, 'cache');
  const runs: Record<string, unknown> = {};
  const trainSeconds: Record<string, number> = {};
  for (const f of readdirSync(cache)
    .filter((f) => /^[0-9a-f]{16}\.json$/.test(f))
    .sort()) {
    const v = JSON.parse(readFileSync(join(cache, f), 'utf8')) as Record<string, unknown>;
    const label = `${String(v.condition)} seed ${String(v.seed)}`;
    trainSeconds[label] = v.trainSeconds as number;
    delete v.trainSeconds;
    runs[f] = v;
  }
  return { runs, trainSeconds };
}

const ms = (iso: string | null) => (iso ? Date.parse(iso) : NaN);
const round = (x: number) => +x.toFixed(2);

const port = await new Promise<number>((res, rej) => {
  const s = createServer();
  s.once('error', rej);
  s.listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => res(port));
  });
});
const url = `redis://127.0.0.1:${port}`;
const claimArgs = ['--claim', args.claim, '--claim-scale', args.scale, '--quiet'];
mkdirSync(args.out, { recursive: true });
try {
  say(`${args.claim} at scale ${args.scale} with --jobs ${args.workers} into ${join(args.out, 'jobs')}`);
  const jobsStart = new Date().toISOString();
  const jobsSeconds = await timed([...claimArgs, '--jobs', String(args.workers), '--out', join(args.out, 'jobs')], 'jobs');
  say(`--jobs ${args.workers}: ${jobsSeconds.toFixed(1)} s; now the queue: redis-server on port ${port} and ${args.workers} worker(s)`);
  const redis = start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', scratch], 'redis');
  await redis.line(/Ready to accept connections/);
  const workers = Array.from({ length: args.workers }, (_, i) => tsx(WORKER, ['--queue', url], `worker ${i + 1}`));
  await Promise.all(workers.map((w) => w.line(/serving queue/)));
  const statusFile = join(args.out, 'queue-status.json');
  const queueStart = new Date().toISOString();
  const queueSeconds = await timed([...claimArgs, '--out', join(args.out, 'queue'), '--queue', url, '--status-json', statusFile], 'queue');
  const a = records(join(args.out, 'jobs'));
  const b = records(join(args.out, 'queue'));
  const verdict = (d: string) => readFileSync(join(args.out, d, args.claim, 'verdict.json'), 'utf8');
  const status = JSON.parse(readFileSync(statusFile, 'utf8')) as SweepStatus;
  const perRun = status.list.map((r) => {
    const pickup = (ms(r.processedAt) - ms(r.queuedAt)) / 1000;
    const inWorker = (ms(r.finishedAt) - ms(r.processedAt)) / 1000 - (r.childSeconds ?? NaN);
    const delivery = (ms(r.doneAt) - ms(r.finishedAt)) / 1000;
    return {
      run: r.run,
      worker: r.worker,
      trainSeconds: round(r.trainSeconds ?? NaN),
      childSeconds: round(r.childSeconds ?? NaN),
      /** From queued to a worker taking it (includes waiting for a free worker: not overhead for the runs queued behind others). */
      pickupSeconds: round(pickup),
      /** The worker's time on the job besides its training child: checks, scratch folder, reading the files, sending the result. */
      workerSeconds: round(inWorker),
      /** From the worker finishing the job to its result in the coordinator's cache (the event, the checks, the writes). */
      deliverySeconds: round(delivery),
    };
  });
  const runs = perRun.length;
  const firstWave = perRun.filter((_, i) => i < args.workers);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const overheadPerRun = mean(firstWave.map((r) => r.pickupSeconds)) + mean(perRun.map((r) => r.workerSeconds + r.deliverySeconds));
  const result = {
    claim: args.claim,
    scale: args.scale,
    workers: args.workers,
    identical: isDeepStrictEqual(a.runs, b.runs) && verdict('jobs') === verdict('queue'),
    sameRuns: isDeepStrictEqual(Object.keys(a.runs), Object.keys(b.runs)),
    sameVerdict: verdict('jobs') === verdict('queue'),
    verdict: JSON.parse(verdict('queue')) as unknown,
    jobs: { startedAt: jobsStart, wallSeconds: round(jobsSeconds), trainSeconds: a.trainSeconds },
    queue: { startedAt: queueStart, wallSeconds: round(queueSeconds), trainSeconds: b.trainSeconds, perRun },
    /** (queue wall-clock - jobs wall-clock) / runs: includes any difference in training speed between the two. */
    wallDifferencePerRunSeconds: round((queueSeconds - jobsSeconds) / runs),
    /** Pickup of the runs that found a free worker, plus each run's worker and delivery time: the queue's own cost per run. */
    overheadPerRunSeconds: round(overheadPerRun),
    commands: {
      jobs: `npm run experiment -- ${[...claimArgs, '--jobs', String(args.workers), '--out', 'DIR/jobs'].join(' ')}`,
      workers: `npm run sweep-worker -- --queue ${url}   (x${args.workers})`,
      queue: `npm run experiment -- ${[...claimArgs, '--out', 'DIR/queue', '--queue', url, '--status-json', 'DIR/queue-status.json'].join(' ')}`,
    },
  };
  writeFileSync(join(args.out, 'comparison.json'), JSON.stringify(result, null, 1) + '\n');
  process.stdout.write(
    [
      `${args.claim} at scale ${args.scale}: --jobs ${args.workers} against the queue with ${args.workers} worker(s) on this machine`,
      `  identical results: ${result.identical ? 'yes' : 'NO'} (cached runs field by field but the training wall-clock: ${isDeepStrictEqual(a.runs, b.runs) ? 'same' : 'differ'}; verdict: ${result.sameVerdict ? 'same' : 'differs'})`,
      `  wall-clock: --jobs ${args.workers} ${jobsSeconds.toFixed(1)} s, queue ${queueSeconds.toFixed(1)} s (difference per run ${result.wallDifferencePerRunSeconds.toFixed(2)} s)`,
      `  training seconds per run, --jobs: ${Object.entries(a.trainSeconds)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(', ')}`,
      `  training seconds per run, queue: ${Object.entries(b.trainSeconds)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(', ')}`,
      ...perRun.map(
        (r) => `  ${r.run} on ${r.worker}: pickup ${r.pickupSeconds} s, in the worker besides training ${r.workerSeconds} s, delivery ${r.deliverySeconds} s`,
      ),
      `  the queue's overhead per run: ${result.overheadPerRunSeconds.toFixed(2)} s`,
      `Written to ${join(args.out, 'comparison.json')}`,
    ].join('\n') + '\n',
  );
  if (!result.identical) process.exitCode = 1;
} finally {
  for (const p of procs) p.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
}
