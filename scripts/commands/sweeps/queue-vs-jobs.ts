/**
 * `npm run queue-vs-jobs -- --out DIR [--claim C1] [--claim-scale full|smoke] [--workers 2]
 * [--stop-at 05:10]`: one claim trained twice from nothing on this machine (issue 27), first with
 * `--jobs N`, then through the BullMQ queue with N `npm run sweep-worker` processes (a `redis-server`
 * on a free port, started and removed by this script), into fresh folders under DIR. It prints and
 * writes to `DIR/comparison.json` whether the two give identical results (every cached run field by
 * field but its training wall-clock, and the verdict), the wall-clock of both (and when each run's
 * result was in), and the queue's overhead per run from the coordinator's status file (BullMQ's job
 * times against the workers' training children). With `--stop-at`, whatever still trains at that
 * time (UTC) is stopped and the comparison covers the runs finished by then.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { choiceFlag, intFlag, parseFlags, readCommandLine, UsageError } from '../../lib/cli';
import type { SweepStatus } from '../../claims/sweepStatus';

const USAGE = [
  'Usage: npm run queue-vs-jobs -- --out DIR [--claim C1] [--claim-scale full|smoke] [--workers N] [--stop-at HH:MM]',
  '',
  '  --out          a new or empty folder: DIR/jobs, DIR/queue, DIR/queue-status.json, DIR/comparison.json',
  '  --claim        the claim to train (default C1)',
  '  --claim-scale  full (default) or smoke',
  '  --workers      --jobs N and N workers, 1..16 (default 2)',
  '  --stop-at      stop what still trains at this UTC time (HH:MM, today or, if past, tomorrow) and compare what finished',
].join('\n');

/** `HH:MM` as the next such UTC time in ms. */
function nextUtc(text: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(text);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) throw new UsageError(`--stop-at: "${text}" is not HH:MM (UTC)`);
  const d = new Date();
  d.setUTCHours(Number(m[1]), Number(m[2]), 0, 0);
  if (d.getTime() <= Date.now()) d.setUTCDate(d.getUTCDate() + 1);
  return d.getTime();
}

const args = readCommandLine('queue-vs-jobs', USAGE, (argv) => {
  const v = parseFlags(argv, {
    out: { type: 'string' },
    claim: { type: 'string', default: 'C1' },
    'claim-scale': { type: 'string', default: 'full' },
    workers: { type: 'string', default: '2' },
    'stop-at': { type: 'string' },
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
    stopAt: v['stop-at'] === undefined ? null : nextUtc(v['stop-at']),
  };
});

if (spawnSync('redis-server', ['--version']).status !== 0) {
  process.stderr.write('queue-vs-jobs: redis-server is not installed (apt-get install redis-server)\n');
  process.exit(2);
}

const root = fileURLToPath(new URL('../../..', import.meta.url));
const EXPERIMENT = join(root, 'scripts/commands/experiments/experiment.ts');
const WORKER = join(root, 'scripts/commands/sweeps/sweep-worker.ts');
const say = (line: string) => process.stderr.write(`queue-vs-jobs: ${line}\n`);
const procs: ChildProcess[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'swarm-qvj-'));

/** Ends a child and the processes it started (each child leads its own process group). */
const killGroup = (c: ChildProcess, signal: NodeJS.Signals) => {
  try {
    if (c.pid !== undefined && c.exitCode === null) process.kill(-c.pid, signal);
  } catch {
    // already gone
  }
};

/** Starts a child (its own process group) with its output collected and copied to stderr with a tag. */
function start(cmd: string, argv: string[], tag: string) {
  const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, REDIS_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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

/** Runs a coordinator to its end, or until --stop-at: its wall-clock in seconds, and whether it finished. */
async function timed(argv: string[], tag: string): Promise<{ seconds: number; finished: boolean }> {
  const t = performance.now();
  const p = tsx(EXPERIMENT, argv, tag);
  let stopped = false;
  const timer =
    args.stopAt === null
      ? null
      : setTimeout(
          () => {
            stopped = true;
            say(`--stop-at reached: stopping ${tag}`);
            killGroup(p.child, 'SIGKILL');
          },
          Math.max(0, args.stopAt - Date.now()),
        );
  const code = await p.exited;
  if (timer) clearTimeout(timer);
  const seconds = (performance.now() - t) / 1000;
  if (stopped) return { seconds, finished: false };
  if (code !== 0) throw new Error(`${tag} exited with code ${code}`);
  return { seconds, finished: true };
}

/** The cached run records of `dir` by file name, their training seconds and when each was written (s after `startMs`). */
function records(dir: string, startMs: number) {
  const cache = join(dir, 'cache');
  const runs: Record<string, unknown> = {};
  const trainSeconds: Record<string, number> = {};
  const doneAfter: Record<string, number> = {};
  if (!existsSync(cache)) return { runs, trainSeconds, doneAfter };
  for (const f of readdirSync(cache)
    .filter((f) => /^[0-9a-f]{16}\.json$/.test(f))
    .sort()) {
    const v = JSON.parse(readFileSync(join(cache, f), 'utf8')) as Record<string, unknown>;
    const label = `${String(v.condition)} seed ${String(v.seed)}`;
    trainSeconds[label] = round(v.trainSeconds as number);
    doneAfter[label] = round((statSync(join(cache, f)).mtimeMs - startMs) / 1000);
    delete v.trainSeconds;
    runs[f] = v;
  }
  return { runs, trainSeconds, doneAfter };
}

const ms = (iso: string | null) => (iso ? Date.parse(iso) : NaN);
const round = (x: number) => +x.toFixed(2);
const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);
const list = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(', ') || 'none';

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
const comparisonFile = join(args.out, 'comparison.json');
// The children lead their own process groups, so a Ctrl-C here must end them.
process.once('SIGINT', () => {
  for (const p of procs) killGroup(p, 'SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
  process.exit(130);
});
try {
  say(`${args.claim} at scale ${args.scale} with --jobs ${args.workers} into ${join(args.out, 'jobs')}`);
  const jobsStart = Date.now();
  const jobs = await timed([...claimArgs, '--jobs', String(args.workers), '--out', join(args.out, 'jobs')], 'jobs');
  say(`--jobs ${args.workers}: ${jobs.seconds.toFixed(1)} s${jobs.finished ? '' : ' (stopped)'}`);
  let queue: { seconds: number; finished: boolean } | null = null;
  let queueStart = NaN;
  const statusFile = join(args.out, 'queue-status.json');
  if (jobs.finished) {
    say(`now the queue: redis-server on port ${port} and ${args.workers} worker(s)`);
    const redis = start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', scratch], 'redis');
    await redis.line(/Ready to accept connections/);
    const workers = Array.from({ length: args.workers }, (_, i) => tsx(WORKER, ['--queue', url], `worker ${i + 1}`));
    await Promise.all(workers.map((w) => w.line(/serving queue/)));
    queueStart = Date.now();
    queue = await timed([...claimArgs, '--out', join(args.out, 'queue'), '--queue', url, '--status-json', statusFile], 'queue');
  }
  const a = records(join(args.out, 'jobs'), jobsStart);
  const b = records(join(args.out, 'queue'), queueStart);
  const verdict = (d: string) => {
    const f = join(args.out, d, args.claim, 'verdict.json');
    return existsSync(f) ? readFileSync(f, 'utf8') : null;
  };
  const common = Object.keys(b.runs).filter((k) => k in a.runs);
  const status = existsSync(statusFile) ? (JSON.parse(readFileSync(statusFile, 'utf8')) as SweepStatus) : null;
  const done = (status?.list ?? []).filter((r) => r.state === 'done');
  const perRun = done.map((r) => ({
    run: r.run,
    worker: r.worker,
    trainSeconds: round(r.trainSeconds ?? NaN),
    childSeconds: round(r.childSeconds ?? NaN),
    /** From queued to a worker taking it (includes waiting for a free worker: not overhead for the runs queued behind others). */
    pickupSeconds: round((ms(r.processedAt) - ms(r.queuedAt)) / 1000),
    /** The worker's time on the job besides its training child: checks, scratch folder, reading the files, sending the result. */
    workerSeconds: round((ms(r.finishedAt) - ms(r.processedAt)) / 1000 - (r.childSeconds ?? NaN)),
    /** From the worker finishing the job to its result in the coordinator's cache (the event, the checks, the writes). */
    deliverySeconds: round((ms(r.doneAt) - ms(r.finishedAt)) / 1000),
  }));
  // The runs that found a free worker when queued: their pickup is the queue's; the others waited for a worker, as under --jobs.
  const firstFinish = Math.min(...done.map((r) => ms(r.finishedAt)));
  const firstWave = perRun.filter((_, i) => ms(done[i].processedAt) < firstFinish);
  const overheadPerRun = mean(firstWave.map((r) => r.pickupSeconds)) + mean(perRun.map((r) => r.workerSeconds + r.deliverySeconds));
  const complete = jobs.finished && queue?.finished === true;
  const result = {
    claim: args.claim,
    scale: args.scale,
    workers: args.workers,
    complete,
    /** Every run finished both ways, field by field the same but the training wall-clock, and the same verdict. */
    identical: complete && isDeepStrictEqual(a.runs, b.runs) && verdict('jobs') === verdict('queue'),
    /** The runs finished both ways, and whether each pair is the same. */
    compared: common.map((k) => ({ file: k, same: isDeepStrictEqual(a.runs[k], b.runs[k]) })),
    verdict: verdict('queue') ? (JSON.parse(verdict('queue')!) as unknown) : null,
    jobs: {
      startedAt: new Date(jobsStart).toISOString(),
      wallSeconds: round(jobs.seconds),
      finished: jobs.finished,
      trainSeconds: a.trainSeconds,
      doneAfter: a.doneAfter,
    },
    queue: queue && {
      startedAt: new Date(queueStart).toISOString(),
      wallSeconds: round(queue.seconds),
      finished: queue.finished,
      trainSeconds: b.trainSeconds,
      doneAfter: b.doneAfter,
      perRun,
    },
    /** (queue wall-clock - jobs wall-clock) / runs, both finished: includes any difference in training speed between the two. */
    wallDifferencePerRunSeconds: complete && queue ? round((queue.seconds - jobs.seconds) / Math.max(1, perRun.length)) : null,
    /** Pickup of the runs that found a free worker, plus each run's worker and delivery time: the queue's own cost per run. */
    overheadPerRunSeconds: perRun.length ? round(overheadPerRun) : null,
    commands: {
      jobs: `npm run experiment -- ${[...claimArgs, '--jobs', String(args.workers), '--out', 'DIR/jobs'].join(' ')}`,
      workers: `npm run sweep-worker -- --queue ${url}   (x${args.workers})`,
      queue: `npm run experiment -- ${[...claimArgs, '--out', 'DIR/queue', '--queue', url, '--status-json', 'DIR/queue-status.json'].join(' ')}`,
    },
  };
  writeFileSync(comparisonFile, JSON.stringify(result, null, 1) + '\n');
  process.stdout.write(
    [
      `${args.claim} at scale ${args.scale}: --jobs ${args.workers} against the queue with ${args.workers} worker(s) on this machine${complete ? '' : ' (stopped at --stop-at: partial)'}`,
      `  identical results: ${result.identical ? 'yes' : complete ? 'NO' : 'not both complete'}; runs finished both ways: ${common.length}, the same field by field (but the training wall-clock): ${result.compared.filter((c) => c.same).length}`,
      `  wall-clock: --jobs ${args.workers} ${jobs.seconds.toFixed(1)} s${jobs.finished ? '' : ' (stopped)'}, queue ${queue ? `${queue.seconds.toFixed(1)} s${queue.finished ? '' : ' (stopped)'}` : 'not run'}`,
      `  each run's result in, seconds after the coordinator started: --jobs ${list(a.doneAfter)}; queue ${list(b.doneAfter)}`,
      `  training seconds per run: --jobs ${list(a.trainSeconds)}; queue ${list(b.trainSeconds)}`,
      ...perRun.map(
        (r) => `  ${r.run} on ${r.worker}: pickup ${r.pickupSeconds} s, in the worker besides training ${r.workerSeconds} s, delivery ${r.deliverySeconds} s`,
      ),
      `  the queue's overhead per run: ${result.overheadPerRunSeconds === null ? '-' : `${result.overheadPerRunSeconds.toFixed(2)} s`}`,
      `Written to ${comparisonFile}`,
    ].join('\n') + '\n',
  );
  if (complete && !result.identical) process.exitCode = 1;
} finally {
  for (const p of procs) killGroup(p, 'SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
}
