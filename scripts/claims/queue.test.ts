/**
 * Integration test of the claims on a BullMQ queue (issue 27): a real redis-server on a free port,
 * two `npm run sweep-worker` processes and coordinators (`npm run experiment -- --claim C1
 * --claim-scale smoke --queue ...`), against a local run; and `--shard` with `--report-only`.
 * Skipped, saying so, where redis-server is not installed (`.ci/run` installs it).
 */
import { Queue, QueueEvents } from 'bullmq';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobId, printable } from './queue';
import type { SweepJobData } from './sweep';

const HAVE_REDIS = spawnSync('redis-server', ['--version']).status === 0;
if (!HAVE_REDIS) console.warn('queue.test: skipped, redis-server is not installed (apt-get install redis-server; .ci/run installs it)');

const root = fileURLToPath(new URL('../..', import.meta.url));
const EXPERIMENT = join(root, 'scripts/experiment.ts');
const WORKER = join(root, 'scripts/sweep-worker.ts');
const SMOKE = ['--claim', 'C1', '--claim-scale', 'smoke', '--quiet'];
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
    'gives the same verdict and numbers as a local run, each run trained once',
    async () => {
      const r = await run(EXPERIMENT, [...SMOKE, '--out', at('queued'), '--queue', url]);
      expect(r.code, r.out).toBe(0);
      expect(r.out.match(/coupled seed \d: training on .* pid \d+/g)).toHaveLength(3);
      expect(verdict(at('queued'))).toEqual(verdict(at('local')));
      expect(records(at('queued'))).toEqual(records(at('local')));
      const runs = trained(workers);
      expect(runs).toHaveLength(3);
      expect(new Set(runs).size).toBe(3);
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
      ] as const) {
        const r = await run(WORKER, [...args]);
        expect(r.code, r.out).toBe(2);
        expect(r.out).toMatch(re);
        expect(r.out).not.toContain(':pw@');
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
