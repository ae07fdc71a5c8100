/**
 * Integration test of the claims on a BullMQ queue (issue 27): a real redis-server on a free port,
 * two `npm run sweep-worker` processes and coordinators (`npm run experiment -- --claim C1
 * --claim-scale smoke --queue ...`), against a local run; and `--shard` with `--report-only`.
 * Skipped, saying so, where redis-server is not installed (`.ci/run` installs it).
 */
import { Queue, QueueEvents } from 'bullmq';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobId, printable } from './queueBase';
import type { QueueStatus } from './queueList';
import type { SweepJobData } from './sweep';
import type { SweepStatus } from './sweepStatus';

const HAVE_REDIS = spawnSync('redis-server', ['--version']).status === 0;
if (!HAVE_REDIS) console.warn('queue.test: skipped, redis-server is not installed (apt-get install redis-server; .ci/run installs it)');

const root = fileURLToPath(new URL('../..', import.meta.url));
const EXPERIMENT = join(root, 'scripts/commands/experiments/experiment.ts');
const WORKER = join(root, 'scripts/commands/sweeps/sweep-worker.ts');
const STATUS = join(root, 'scripts/commands/sweeps/sweep-status.ts');
const SMOKE = ['--claim', 'C1', '--claim-scale', 'smoke', '--quiet'];
/** A plain two-seed experiment at a tiny scale (a few seconds a seed) whose numbers are not all zero. */
const TINY = [
  ...['--family', 'coupled', '--agents', '3', '--updates', '2', '--tasks-per-update', '1', '--group-size', '2', '--hidden', '8', '--scorer', '4'],
  ...['--tmax-start', '8', '--tmax-end', '16', '--eval-tasks', '4', '--seeds', '1,2'],
];
/** Generous: on a loaded 2-core CI machine one smoke run through the queue has taken up to 120 s. */
const LONG = 300_000;
/** The children's TMPDIR: the scratch folders of workers killed mid-run go with it. */
const scratch = mkdtempSync(join(tmpdir(), 'swarm-queue-tmp-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A child process whose output is collected; `waitFor` resolves when the output matches. */
class Proc {
  out = '';
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  private waiters: { re: RegExp; resolve: () => void }[] = [];

  constructor(cmd: string, args: string[]) {
    const env = { ...process.env };
    delete env.REDIS_URL;
    env.TMPDIR = scratch;
    this.child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (b: Buffer) => {
      this.out += b.toString();
      this.waiters = this.waiters.filter((w) => (w.re.test(this.out) ? (w.resolve(), false) : true));
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
    this.exited = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
  }

  waitFor(re: RegExp, ms = LONG): Promise<void> {
    if (re.test(this.out)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${re} within ${ms / 1000} s in:\n${this.out}`)), ms);
      this.waiters.push({ re, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}

const tsx = (entry: string, args: string[]) => new Proc(process.execPath, ['--import', 'tsx', entry, ...args]);

/** Runs a script to its end: exit code and output. */
async function run(entry: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const p = tsx(entry, args);
  const code = await p.exited;
  return { code, out: p.out };
}

/** The cached run records of `dir` by key, without their training time (a wall-clock). */
function records(dir: string): Record<string, unknown> {
  const cache = join(dir, 'cache');
  const out: Record<string, unknown> = {};
  for (const f of readdirSync(cache)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const v = JSON.parse(readFileSync(join(cache, f), 'utf8')) as Record<string, unknown>;
    delete v.trainSeconds;
    out[f] = v;
  }
  return out;
}

/** A JSON file without the wall-clock fields (training seconds, rates, per-update milliseconds). */
function withoutTimes(file: string): unknown {
  const timing = new Set(['trainSeconds', 'updatesPerSecond', 'collectMs', 'learnMs']);
  const strip = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(strip)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (timing.has(k) ? [] : [[k, strip(x)]])))
        : v;
  return strip(JSON.parse(readFileSync(file, 'utf8')));
}

/** A training-seed CSV without its two timing columns (collectMs, learnMs). */
function curveWithoutTimes(file: string): string[][] {
  const rows = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const drop = ['collectMs', 'learnMs'].map((c) => rows[0].indexOf(c));
  return rows.map((r) => r.filter((_, i) => !drop.includes(i)));
}

/** The report's table and talk line (stdout from "Evaluation:" to the talk line). */
const table = (out: string) => out.slice(out.indexOf('Evaluation:'), out.indexOf('Training wall-clock'));

const verdict = (dir: string) => JSON.parse(readFileSync(join(dir, 'C1', 'verdict.json'), 'utf8')) as unknown;
/** Every "training (job run-...)" line of the workers: each is one run trained. */
const trained = (ws: Proc[]) => ws.flatMap((w) => [...w.out.matchAll(/training \(job (run-[0-9a-f]+)\)/g)].map((m) => m[1]));

describe.skipIf(!HAVE_REDIS)('claims on a BullMQ queue (redis-server, two workers)', () => {
  let dir = '';
  const at = (name: string) => join(dir, name);
  let redis: Proc;
  let url = '';
  let workers: Proc[] = [];
  let queue: Queue;
  let events: QueueEvents;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'swarm-queue-'));
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = new Proc('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
    await redis.waitFor(/Ready to accept connections/, 20_000);
    const local = run(EXPERIMENT, [...SMOKE, '--out', at('local')]);
    workers = [1, 2].map(() => tsx(WORKER, ['--queue', url]));
    await Promise.all(workers.map((w) => w.waitFor(/serving queue swarm-sweep/)));
    const l = await local;
    if (l.code !== 0) throw new Error(`the local reference run failed:\n${l.out}`);
    queue = new Queue('swarm-sweep', { connection: { host: '127.0.0.1', port } });
    events = new QueueEvents('swarm-sweep', { connection: { host: '127.0.0.1', port } });
    await events.waitUntilReady();
  }, LONG);

  afterAll(async () => {
    await Promise.allSettled([queue?.close(), events?.close()]);
    for (const w of workers) w.child.kill('SIGKILL');
    redis?.child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'gives the same verdict and numbers as a local run, each run trained once; the status file says who trained what',
    async () => {
      const status = at('status.json');
      const r = await run(EXPERIMENT, [...SMOKE, '--out', at('queued'), '--queue', url, '--status-json', status]);
      expect(r.code, r.out).toBe(0);
      expect(r.out.match(/coupled seed \d: training on .* pid \d+/g)).toHaveLength(3);
      expect(verdict(at('queued'))).toEqual(verdict(at('local')));
      expect(records(at('queued'))).toEqual(records(at('local')));
      const runs = trained(workers);
      expect(runs).toHaveLength(3);
      expect(new Set(runs).size).toBe(3);
      const s = JSON.parse(readFileSync(status, 'utf8')) as SweepStatus;
      expect(s).toMatchObject({ format: 'swarm-sweep-status', version: 1, queue: 'swarm-sweep', redis: url, finished: true, etaSeconds: 0 });
      expect(s.runs).toEqual({ total: 3, done: 3, running: 0, waiting: 0, failed: 0 });
      expect(s.updates).toEqual({ total: 6, done: 6 });
      expect(s.list.map((x) => x.run).sort()).toEqual(['coupled seed 1', 'coupled seed 2', 'coupled seed 3']);
      for (const x of s.list) {
        expect(x).toMatchObject({ state: 'done', update: 2, updates: 2, reason: null });
        expect(x.worker).toMatch(/ pid \d+$/);
        expect(runs).toContain(x.job);
        const times = [x.queuedAt, x.processedAt, x.finishedAt, x.doneAt].map((t) => Date.parse(t!));
        expect(times.every(Number.isFinite), JSON.stringify(x)).toBe(true);
        expect([...times].sort((a, b) => a - b)).toEqual(times);
        expect(x.childSeconds).toBeGreaterThan(0);
      }
      // From any machine: what the queue holds, per sweep, read from Redis alone.
      const q = await run(STATUS, ['--queue', url, '--json']);
      expect(q.code, q.out).toBe(0);
      const held = JSON.parse(q.out.slice(q.out.indexOf('{'))) as QueueStatus;
      expect(held).toMatchObject({ format: 'swarm-queue-status', version: 1, queue: 'swarm-sweep', redis: url });
      expect(held.sweeps).toHaveLength(1);
      expect(held.sweeps[0]).toMatchObject({ sweep: s.sweep, runs: { done: 3, running: 0, waiting: 0, failed: 0 } });
      expect(held.sweeps[0].list.map((x) => x.job).sort()).toEqual([...runs].sort());
      for (const x of held.sweeps[0].list) expect(x).toMatchObject({ state: 'done', update: 2, updates: 2, worker: expect.stringMatching(/ pid \d+$/) });
      const text = await run(STATUS, ['--queue', url]);
      expect(text.out).toMatch(new RegExp(`sweep ${s.sweep}: 3 done, 0 running, 0 waiting, 0 failed`));
    },
    LONG,
  );

  it(
    'a coordinator started again (its cache lost) takes the finished runs from the queue and trains nothing twice',
    async () => {
      const r = await run(EXPERIMENT, [...SMOKE, '--out', at('again'), '--queue', url]);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/3 run\(s\) to queue/);
      expect(records(at('again'))).toEqual(records(at('local')));
      expect(trained(workers)).toHaveLength(3);
    },
    LONG,
  );

  it(
    'fails a malformed job with its reason, and the workers go on serving',
    async () => {
      const real = (await queue.getJobs(['completed']))[0].data as SweepJobData;
      const shape = await queue.add('bad', { hello: 'world' }, { jobId: 'bad-shape' });
      const key = 'f'.repeat(16);
      const config = await queue.add('bad', { ...real, key, config: { ...real.config, agents: '999' } }, { jobId: jobId(key) });
      await expect(shape.waitUntilFinished(events, 30_000)).rejects.toThrow(/malformed job: .*sweep/);
      await expect(config.waitUntilFinished(events, 30_000)).rejects.toThrow(/malformed job: its config: agents/);
      expect(workers.map((w) => w.child.exitCode)).toEqual([null, null]);
      const r = await run(EXPERIMENT, [...SMOKE, '--seeds', '4', '--out', at('seed4'), '--queue', url]);
      expect(r.code, r.out).toBe(0);
      expect(trained(workers)).toHaveLength(4);
    },
    LONG,
  );

  it(
    'a plain multi-seed experiment through the queue writes the files and the table of a local run; its progress names the worker and the update',
    async () => {
      const before = trained(workers).length;
      const [local, queued] = await Promise.all([
        run(EXPERIMENT, [...TINY, '--quiet', '--out', at('tiny-local')]),
        run(EXPERIMENT, [...TINY, '--out', at('tiny-queued'), '--queue', url, '--status-json', at('tiny.json')]),
      ]);
      expect(local.code, local.out).toBe(0);
      expect(queued.code, queued.out).toBe(0);
      expect(table(queued.out)).toEqual(table(local.out));
      expect(table(local.out)).toMatch(/trained swarm {2,}0\.\d{3} ± /);
      const [a, b] = [at('tiny-local'), at('tiny-queued')];
      expect(readdirSync(b).sort()).toEqual(readdirSync(a).sort());
      for (const f of ['summary.csv', 'policy-seed1.json', 'policy-seed2.json', 'experiment.json'])
        expect(readFileSync(join(b, f), 'utf8'), f).toBe(readFileSync(join(a, f), 'utf8'));
      for (const f of ['summary.json', 'result-seed1.json', 'result-seed2.json']) expect(withoutTimes(join(b, f)), f).toEqual(withoutTimes(join(a, f)));
      for (const f of ['training-seed1.csv', 'training-seed2.csv']) expect(curveWithoutTimes(join(b, f)), f).toEqual(curveWithoutTimes(join(a, f)));
      expect(trained(workers)).toHaveLength(before + 2);
      expect(queued.out.match(/seed \d: training on .* pid \d+/g)).toHaveLength(2);
      // The bar (a line per tenth, stderr is not a terminal) names the running seed's worker and update.
      expect(queued.out).toMatch(/sweep swarm-sweep \[[#.]{24}\] \d\/4 .* ETA .* runs \d\/2 done, [12] running \(seed \d on .* pid \d+ at \d\/2[,)]/);
      const s = JSON.parse(readFileSync(at('tiny.json'), 'utf8')) as SweepStatus;
      expect(s.runs).toEqual({ total: 2, done: 2, running: 0, waiting: 0, failed: 0 });
      expect(s.list.map((x) => x.run).sort()).toEqual(['seed 1', 'seed 2']);
      // Run again into its folder: both seeds are taken from it, nothing is queued.
      const again = await run(EXPERIMENT, [...TINY, '--quiet', '--out', b, '--queue', url]);
      expect(again.code, again.out).toBe(0);
      expect(again.out).toMatch(/seeds 1, 2 taken from the folder/);
      expect(table(again.out)).toEqual(table(local.out));
      // Starting weights (--load-policy) travel with the jobs: the same as a local run from them.
      const from = ['--quiet', '--load-policy', join(a, 'policy-seed1.json')];
      const [l2, q2] = await Promise.all([
        run(EXPERIMENT, [...TINY, ...from, '--out', at('from-local')]),
        run(EXPERIMENT, [...TINY, ...from, '--out', at('from-queued'), '--queue', url]),
      ]);
      expect(l2.code, l2.out).toBe(0);
      expect(q2.code, q2.out).toBe(0);
      expect(table(q2.out)).toEqual(table(l2.out));
      for (const f of ['summary.csv', 'policy-seed1.json', 'policy-seed2.json', 'experiment.json'])
        expect(readFileSync(join(at('from-queued'), f), 'utf8'), f).toBe(readFileSync(join(at('from-local'), f), 'utf8'));
      expect(readFileSync(join(at('from-queued'), 'policy-seed1.json'), 'utf8')).not.toBe(readFileSync(join(b, 'policy-seed1.json'), 'utf8'));
    },
    LONG,
  );

  it(
    'a job from another code version is refused and left on the queue; a queue with another sweep stops a coordinator (exit 2)',
    async () => {
      const real = (await queue.getJobs(['completed']))[0].data as SweepJobData;
      const key = 'e'.repeat(16);
      const delayed = new Promise<void>((resolve) =>
        events.on('delayed', ({ jobId: id }) => {
          if (id === jobId(key)) resolve();
        }),
      );
      const job = await queue.add('other', { ...real, key, code: 'someone-else', sweep: 'another-sweep' }, { jobId: jobId(key) });
      await Promise.race(workers.map((w) => w.waitFor(/refusing job run-e{16}: it was queued by code version someone-else/)));
      await delayed;
      expect(['delayed', 'waiting', 'active']).toContain(await job.getState());
      const r = await run(EXPERIMENT, [...SMOKE, '--seeds', '5', '--out', at('seed5'), '--queue', url]);
      expect(r.code).toBe(2);
      expect(r.out).toMatch(/^error: the queue "swarm-sweep" on redis:\/\/127\.0\.0\.1:\d+ holds unfinished runs of another sweep/m);
      expect(r.out).not.toMatch(/\n\s+at /);
    },
    LONG,
  );

  it(
    'an unreachable Redis and a refused password are one line and exit 2, the password never shown',
    async () => {
      const nobody = await freePort();
      const closed = await run(EXPERIMENT, [...SMOKE, '--out', at('closed'), '--queue', `redis://127.0.0.1:${nobody}`]);
      expect(closed.code).toBe(2);
      expect(closed.out).toMatch(/error: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+: connection refused/);
      const port = await freePort();
      const locked = new Proc('redis-server', [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--requirepass',
        'right-one',
      ]);
      try {
        await locked.waitFor(/Ready to accept connections/, 20_000);
        const wrong = await run(EXPERIMENT, [...SMOKE, '--out', at('wrong'), '--queue', `redis://:hunter2@127.0.0.1:${port}`]);
        expect(wrong.code).toBe(2);
        expect(wrong.out).toMatch(/error: Redis at redis:\/\/\*\*\*@127\.0\.0\.1:\d+ refused the credentials/);
        const worker = await run(WORKER, ['--queue', `redis://:hunter2@127.0.0.1:${port}`]);
        expect(worker.code).toBe(2);
        expect(worker.out).toMatch(/^sweep-worker: Redis at redis:\/\/\*\*\*@.* refused the credentials/m);
        for (const o of [wrong.out, worker.out]) expect(o).not.toContain('hunter2');
      } finally {
        locked.child.kill('SIGKILL');
      }
      const bad = await run(EXPERIMENT, [...SMOKE, '--out', at('bad'), '--queue', url, '--shard', '1/2']);
      expect(bad.code).toBe(2);
      expect(bad.out).toMatch(/--queue and --shard/);
    },
    LONG,
  );
});

describe.skipIf(!HAVE_REDIS)('a worker or the coordinator killed mid-run (redis-server)', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'swarm-stall-'));
  });
  let redis: Proc;
  let url = '';
  let heir: Proc;
  const procs: Proc[] = [];
  afterAll(() => {
    for (const p of procs) p.child.kill('SIGKILL');
    redis?.child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'leaves its run to another worker, which finishes it; the run enters the cache once',
    async () => {
      const port = await freePort();
      url = `redis://127.0.0.1:${port}`;
      redis = new Proc('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
      await redis.waitFor(/Ready to accept connections/, 20_000);
      const lock = ['--queue', url, '--lock-seconds', '1'];
      const doomed = tsx(WORKER, lock);
      procs.push(doomed);
      await doomed.waitFor(/serving queue/);
      const coordinator = tsx(EXPERIMENT, [...SMOKE, '--seeds', '6', '--out', join(dir, 'out'), '--queue', url]);
      procs.push(coordinator);
      await doomed.waitFor(/training \(job run-/);
      doomed.child.kill('SIGKILL');
      heir = tsx(WORKER, lock);
      procs.push(heir);
      expect(await coordinator.exited, coordinator.out).toBe(0);
      expect(trained([doomed])).toEqual(trained([heir]));
      expect(heir.out).toMatch(/stalled/);
      expect(readdirSync(join(dir, 'out', 'cache')).filter((f) => /^[0-9a-f]{16}\.json$/.test(f))).toHaveLength(1);
      expect(coordinator.out.match(/trained on /g)).toHaveLength(1);
      // The coordinator names both workers: the one that started the run and the one that took it over.
      const on = [...coordinator.out.matchAll(/coupled seed 6: training on .* pid (\d+)/g)].map((m) => Number(m[1]));
      expect(on).toEqual([doomed.child.pid, heir.child.pid]);
    },
    LONG,
  );

  it(
    'a coordinator killed while its run trains and started again finishes without training it twice',
    async () => {
      const args = [...SMOKE, '--seeds', '7', '--out', join(dir, 'restart'), '--queue', url];
      const before = trained([heir]).length;
      const first = tsx(EXPERIMENT, args);
      procs.push(first);
      await heir.waitFor(new RegExp(`(training \\(job run-[0-9a-f]+\\)[^]*){${before + 1}}`));
      first.child.kill('SIGKILL');
      await first.exited;
      const second = await run(EXPERIMENT, args);
      expect(second.code, second.out).toBe(0);
      const runs = trained([heir]);
      expect(runs).toHaveLength(before + 1);
      expect(second.out).toMatch(/trained on .* pid/);
    },
    LONG,
  );
});

describe.skipIf(!HAVE_REDIS)('Redis lost mid-sweep (redis-server killed)', () => {
  let dir = '';
  const procs: Proc[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'swarm-lost-'));
  });
  afterAll(() => {
    for (const p of procs) p.child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'coordinator and worker stop within the wait with one line and exit code 2; the same command after Redis is back finishes the sweep',
    async () => {
      const port = await freePort();
      const url = `redis://127.0.0.1:${port}`;
      const data = join(dir, 'redis');
      mkdirSync(data);
      // With its append-only file, as a lab's Redis keeps its data: the run is still on the queue when it is back.
      const serve = () => {
        const p = new Proc('redis-server', [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'yes',
          '--appendfsync',
          'always',
          '--dir',
          data,
        ]);
        procs.push(p);
        return p;
      };
      let redis = serve();
      await redis.waitFor(/Ready to accept connections/, 20_000);
      const flags = ['--queue', url, '--redis-wait', '2'];
      const worker = tsx(WORKER, [...flags, '--lock-seconds', '1']);
      procs.push(worker);
      await worker.waitFor(/serving queue/);
      const args = [...SMOKE, '--seeds', '8', '--out', join(dir, 'out'), ...flags];
      const coordinator = tsx(EXPERIMENT, args);
      procs.push(coordinator);
      await worker.waitFor(/training \(job run-/);
      redis.child.kill('SIGKILL');
      await redis.exited;
      expect(await worker.exited, worker.out).toBe(2);
      expect(await coordinator.exited, coordinator.out).toBe(2);
      expect(worker.out).toMatch(
        /^sweep-worker: lost Redis at redis:\/\/127\.0\.0\.1:\d+: no connection for 2 attempt\(s\) a second apart \(.*ECONNREFUSED.*\); stopped [01] training run\(s\)/m,
      );
      expect(coordinator.out).toMatch(
        /^error: lost Redis at redis:\/\/127\.0\.0\.1:\d+: .*; the runs in .* are kept: start Redis again and run the same command/m,
      );
      for (const p of [worker, coordinator]) {
        expect(p.out.match(/lost Redis/g)).toHaveLength(1);
        expect(p.out).not.toMatch(/\n\s+at /);
      }
      redis = serve();
      await redis.waitFor(/Ready to accept connections/, 20_000);
      const heir = tsx(WORKER, [...flags, '--lock-seconds', '1']);
      procs.push(heir);
      const again = await run(EXPERIMENT, args);
      expect(again.code, again.out).toBe(0);
      expect(again.out).toMatch(/coupled seed 8: trained on .* pid \d+/);
      expect(heir.out).toMatch(/stalled/);
      expect(readdirSync(join(dir, 'out', 'cache')).filter((f) => /^[0-9a-f]{16}\.json$/.test(f))).toHaveLength(1);
    },
    LONG,
  );

  it(
    'Redis back within the wait, even empty (no persistence): nobody stops, the coordinator queues its lost run again and the sweep finishes',
    async () => {
      const port = await freePort();
      const url = `redis://127.0.0.1:${port}`;
      const serve = () => {
        const p = new Proc('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
        procs.push(p);
        return p;
      };
      let redis = serve();
      await redis.waitFor(/Ready to accept connections/, 20_000);
      const flags = ['--queue', url, '--redis-wait', '120'];
      const worker = tsx(WORKER, [...flags, '--lock-seconds', '1']);
      procs.push(worker);
      await worker.waitFor(/serving queue/);
      const coordinator = tsx(EXPERIMENT, [...SMOKE, '--seeds', '9', '--out', join(dir, 'empty'), ...flags]);
      procs.push(coordinator);
      await worker.waitFor(/training \(job run-/);
      redis.child.kill('SIGKILL');
      await redis.exited;
      redis = serve();
      await redis.waitFor(/Ready to accept connections/, 20_000);
      expect(await coordinator.exited, coordinator.out).toBe(0);
      expect(coordinator.out).toMatch(/coupled seed 9: not on the queue any more \(Redis came back without its data\): queued again/);
      expect(coordinator.out).toMatch(/coupled seed 9: trained on .* pid \d+/);
      expect(worker.child.exitCode).toBe(null);
      expect(readdirSync(join(dir, 'empty', 'cache')).filter((f) => /^[0-9a-f]{16}\.json$/.test(f))).toHaveLength(1);
    },
    LONG,
  );
});

describe('text from the network', () => {
  it('is shown as one printable line, terminal escapes defused, cut to its limit', () => {
    expect(printable('host\u001b[2J\nmalicious')).toBe('host?[2J?malicious');
    expect(printable('x'.repeat(500))).toHaveLength(300);
  });
});

describe('bad sweep flags', () => {
  it(
    'the worker without a queue, with a bad URL or concurrency: one line, the usage, exit 2',
    async () => {
      for (const [args, re] of [
        [[], /sweep-worker: --queue is required/],
        [['--queue', 'http://:pw@h:1'], /sweep-worker: --queue: http:\/\/\*\*\*@h:1 is not a redis/],
        [['--queue', 'redis://h', '--concurrency', '0'], /sweep-worker: --concurrency: /],
        [['--queue', 'redis://h', '--redis-wait', '0'], /sweep-worker: --redis-wait: /],
      ] as const) {
        const r = await run(WORKER, [...args]);
        expect(r.code, r.out).toBe(2);
        expect(r.out).toMatch(re);
        expect(r.out).not.toContain(':pw@');
      }
      const policy = join(scratch, 'policy.json');
      for (const [args, re] of [
        [['--queue', 'redis://:pw@h', '--load-policy', policy, '--init-from', policy], /^error: --load-policy and --init-from both give starting weights/m],
        [['--status-json', join(scratch, 's.json')], /^error: --status-json works with --queue/m],
        [['--queue', 'redis://h', '--redis-wait', 'x'], /^error: --redis-wait: /m],
        [['--shard', '1/2'], /^error: --shard works with --claim only/m],
      ] as const) {
        const r = await run(EXPERIMENT, [...args, '--out', join(scratch, 'never')]);
        expect(r.code, r.out).toBe(2);
        expect(r.out).toMatch(re);
        expect(r.out).not.toContain(':pw@');
        expect(existsSync(join(scratch, 'never'))).toBe(false);
      }
      // A status file that cannot be written is refused before anything is queued.
      for (const extra of [SMOKE, TINY]) {
        const r = await run(EXPERIMENT, [...extra, '--queue', 'redis://127.0.0.1:1', '--status-json', '/dev/null/x', '--out', join(scratch, 'sj')]);
        expect(r.code, r.out).toBe(2);
        expect(r.out).toMatch(/^error: --status-json \/dev\/null\/x: /m);
      }
    },
    LONG,
  );
});

describe('--shard and --report-only (no queue)', () => {
  let dir = '';
  const at = (name: string) => join(dir, name);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'swarm-shard-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'two shards train the run list once between them; their caches copied together give the local verdict; a missing run is named',
    async () => {
      const [local, one, two] = await Promise.all([
        run(EXPERIMENT, [...SMOKE, '--out', at('local')]),
        run(EXPERIMENT, [...SMOKE, '--out', at('s1'), '--shard', '1/2']),
        run(EXPERIMENT, [...SMOKE, '--out', at('s2'), '--shard', '2/2']),
      ]);
      for (const r of [local, one, two]) expect(r.code, r.out).toBe(0);
      const k1 = Object.keys(records(at('s1')));
      const k2 = Object.keys(records(at('s2')));
      expect(k1.filter((k) => k2.includes(k))).toEqual([]);
      expect([...k1, ...k2].sort()).toEqual(Object.keys(records(at('local'))));
      const partial = await run(EXPERIMENT, [...SMOKE, '--out', at('s1'), '--report-only']);
      expect(partial.code).toBe(1);
      expect(partial.out).toMatch(/--report-only: 1 of the 3 run\(s\) are not in .*: coupled seed \d \([0-9a-f]{16}\)/);
      mkdirSync(at('merged'));
      for (const s of ['s1', 's2']) cpSync(join(at(s), 'cache'), join(at('merged'), 'cache'), { recursive: true });
      const report = await run(EXPERIMENT, [...SMOKE, '--out', at('merged'), '--report-only']);
      expect(report.code, report.out).toBe(0);
      expect(verdict(at('merged'))).toEqual(verdict(at('local')));
    },
    LONG,
  );
});
