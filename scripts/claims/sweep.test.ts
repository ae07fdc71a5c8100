import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAIM_IDS } from './definitions';
import { parseClaimArgs } from './commandLine';
import { runList } from './runner';
import { CACHE_VERSION, SCALES } from './scale';
import { ConditionStore } from './conditionStore';
import { checkRunRecord, codeVersion, parseQueueUrl, parseShard, QueueFault, redact, shardRuns } from './sweep';
import { JobProgress, SweepTracker, type SweepStatus } from './sweepStatus';
import { BadJob, checkExperimentJob, configText, experimentArgv, experimentSeedKey } from './experimentJobs';
import type { ExperimentJobData } from './sweep';
import { defaultConfig } from '../../src/rl/config';
import { readOptions } from '../lib/experiment/options';

const out = mkdtempSync(join(tmpdir(), 'swarm-sweep-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('queue address', () => {
  it('reads host, port, password and TLS, and never shows the credentials', () => {
    const a = parseQueueUrl('rediss://lab:s3cr%40t@queue.example:6380/2');
    expect(a).toMatchObject({ host: 'queue.example', port: 6380, username: 'lab', password: 's3cr@t', db: 2, tls: true });
    expect(a.shown).toBe('rediss://***@queue.example:6380/2');
    expect(parseQueueUrl('redis://127.0.0.1').port).toBe(6379);
    expect(redact('cannot reach redis://:hunter2@h:1 and rediss://u:p@h2')).toBe('cannot reach redis://***@h:1 and rediss://***@h2');
  });

  it('refuses what is not a redis URL, naming it without its password', () => {
    expect(() => parseQueueUrl('http://:pw@host')).toThrow(QueueFault);
    expect(() => parseQueueUrl('http://:pw@host')).toThrow('http://***@host');
    expect(() => parseQueueUrl('localhost:6379')).toThrow(/not a redis/);
    expect(() => parseQueueUrl('redis://h/x')).toThrow(/database number/);
  });

  it('the code version is stable and depends on the cache version', () => {
    expect(codeVersion(CACHE_VERSION)).toBe(codeVersion(CACHE_VERSION));
    expect(codeVersion(CACHE_VERSION)).not.toBe(codeVersion(CACHE_VERSION + 1));
  });
});

describe('--shard', () => {
  it('reads I/N and refuses anything else', () => {
    expect(parseShard('3/8')).toEqual({ index: 3, count: 8 });
    for (const bad of ['0/2', '3/2', '1/0', '1', 'a/b', '-1/2']) expect(typeof parseShard(bad), bad).toBe('string');
  });

  it('the slices of every claim cover the run list exactly once, and a continuation stays with its parent', () => {
    const store = new ConditionStore(SCALES.full, out, { quiet: true });
    const all = runList(store, [...CLAIM_IDS]);
    expect(all.some((j) => j.parentKey !== null)).toBe(true);
    for (const n of [1, 2, 3, 7, all.length + 2]) {
      const slices = Array.from({ length: n }, (_, i) => shardRuns(all, { index: i + 1, count: n }));
      const keys = slices.flat().map((j) => j.key);
      expect(keys.length, `N=${n}`).toBe(all.length);
      expect(new Set(keys)).toEqual(new Set(all.map((j) => j.key)));
      const orphans = slices.flatMap((s) => s.filter((j) => j.parentKey !== null && !s.some((p) => p.key === j.parentKey)));
      expect(orphans, `N=${n}: continuations whose parent is in another shard`).toEqual([]);
      // Deterministic: the same slices from a fresh list.
      expect(shardRuns(runList(store, [...CLAIM_IDS]), { index: 1, count: n })).toEqual(slices[0]);
    }
    const two = [1, 2].map((i) => shardRuns(all, { index: i, count: 2 }).length);
    expect(Math.min(...two)).toBeGreaterThan(0);
  });
});

describe('the claims flags of a sweep', () => {
  const base = ['--claim', 'C1', '--claim-scale', 'smoke'];
  it('reads --queue, --queue-name and --shard', () => {
    const q = parseClaimArgs([...base, '--queue', 'redis://:pw@h:7000', '--queue-name', 'lab-1']);
    expect(q.queue).toMatchObject({ host: 'h', port: 7000, password: 'pw', shown: 'redis://***@h:7000' });
    expect(q.queueName).toBe('lab-1');
    expect(parseClaimArgs([...base, '--shard', '2/5']).shard).toEqual({ index: 2, count: 5 });
    expect(parseClaimArgs(base).queue).toBeUndefined();
  });
  it('refuses what cannot work together, and a bad address without its password', () => {
    const refused = (args: string[]) => {
      try {
        parseClaimArgs([...base, ...args]);
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(refused(['--queue', 'redis://h', '--shard', '1/2'])).toMatch(/--queue and --shard/);
    expect(refused(['--queue', 'redis://h', '--jobs', '2'])).toMatch(/--jobs and --queue/);
    expect(refused(['--shard', '1/2', '--report-only'])).toMatch(/--shard and --report-only/);
    expect(refused(['--shard', '3/2'])).toMatch(/--shard: "3\/2"/);
    expect(refused(['--queue-name', 'a b'])).toMatch(/--queue-name/);
    expect(refused(['--queue', 'ftp://u:pw@h'])).toMatch(/ftp:\/\/\*\*\*@h/);
    expect(refused(['--queue', 'ftp://u:pw@h'])).not.toContain('pw');
  });
});

describe('a run record from a child or a worker', () => {
  const want = { condition: 'coupled', seed: 1, key: '0123456789abcdef', parentKey: null, version: CACHE_VERSION };
  const evalN = {
    ret: 0.5,
    messages: 1,
    messageRate: 0.1,
    handoffs: 0,
    useful: 1,
    minutes: 3,
    parallelism: 1,
    time90: { median: null, q25: null, q75: null, meanReached: null },
    curve: [0, 0.5],
  };
  const record = {
    version: CACHE_VERSION,
    key: want.key,
    condition: 'coupled',
    seed: 1,
    config: {},
    parentKey: null,
    trainSeconds: 1,
    curve: [{ update: 1, phase: 'rlcr', tmax: 5, ret: 0.1 }],
    checkpoints: [{ update: 0, eval: evalN }],
    final: evalN,
    muted: evalN,
    race: { time: evalN.time90, curve: [0.1] },
  };
  it('passes the run asked for', () => {
    expect(checkRunRecord(JSON.stringify(record), want).key).toBe(want.key);
  });
  it('refuses another run, a broken shape and text that is not JSON', () => {
    expect(() => checkRunRecord(JSON.stringify({ ...record, seed: 2 }), want)).toThrow(/another run \(seed 2, not 1\)/);
    expect(() => checkRunRecord(JSON.stringify({ ...record, final: { ret: 'x' } }), want)).toThrow(/not a run record/);
    expect(() => checkRunRecord('{', want)).toThrow(/not JSON/);
  });
});

describe("progress across the lab (the coordinator's status)", () => {
  it('counts runs done, running on which worker at which update, waiting and failed, with an ETA from the updates it saw trained', () => {
    let t = Date.parse('2026-01-01T00:00:00Z');
    const lines: string[] = [];
    const file = join(out, 'status.json');
    const s = new SweepTracker({
      queue: 'q',
      redis: 'redis://***@h:1',
      sweep: 'abc',
      runs: [
        { job: 'run-a', run: 'coupled seed 1', updates: 100 },
        { job: 'run-b', run: 'coupled seed 2', updates: 100 },
        { job: 'run-c', run: 'critic seed 1', updates: 50 },
      ],
      out: { write: (x: string) => lines.push(x) },
      statusFile: file,
      now: () => t,
    });
    s.queued('run-a');
    s.queued('run-b');
    expect(s.progress('run-a', { worker: 'h1 pid 1', update: 0, updates: 100 })).toBe(true);
    t += 10_000;
    expect(s.progress('run-a', { worker: 'h1 pid 1', update: 20, updates: 100 })).toBe(false);
    let st: SweepStatus = s.status();
    expect(st.runs).toEqual({ total: 3, done: 0, running: 1, waiting: 2, failed: 0 });
    expect(st.updates).toEqual({ total: 250, done: 20 });
    expect(st.updatesPerSecond).toBe(2);
    expect(st.etaSeconds).toBe(115);
    expect(s.line(st)).toBe('runs 0/3 done, 1 running (coupled seed 1 on h1 pid 1 at 20/100), 2 waiting, 0 failed');
    // Another worker takes the run over (its first worker died): it counts from the update it reports.
    t += 10_000;
    expect(s.progress('run-a', { worker: 'h2 pid 9', update: 0, updates: 100 })).toBe(true);
    s.progress('run-b', { worker: 'h1 pid 2', update: 0, updates: 100 });
    t += 10_000;
    s.progress('run-b', { worker: 'h1 pid 2', update: 30, updates: 100 });
    s.done('run-a', 'h2 pid 9', 42, { processedAt: null, finishedAt: null, childSeconds: 45 });
    s.failed('run-c', 'malformed job: x');
    st = s.status();
    expect(st.runs).toEqual({ total: 3, done: 1, running: 1, waiting: 0, failed: 1 });
    expect(st.updates.done).toBe(130);
    expect(st.updatesPerSecond).toBe(4.3333);
    expect(st.etaSeconds).toBe(16);
    expect(st.list.find((r) => r.job === 'run-a')).toMatchObject({
      state: 'done',
      worker: 'h2 pid 9',
      trainSeconds: 42,
      childSeconds: 45,
      startedAt: '2026-01-01T00:00:20.000Z',
    });
    expect(st.list.find((r) => r.job === 'run-c')).toMatchObject({ state: 'failed', reason: 'malformed job: x' });
    // Changes of state are written at once; the bar is the --jobs bar over the sweep's updates.
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ runs: st.runs, finished: false });
    s.finish();
    expect((JSON.parse(readFileSync(file, 'utf8')) as SweepStatus).finished).toBe(true);
    expect(lines.at(-1)).toMatch(
      /^sweep q \[#+\.+\] 130\/250 {2}4\.3 upd\/s {2}ETA 0:28 {2}runs 1\/3 done, 1 running \(coupled seed 2 on h1 pid 2 at 30\/100\)/,
    );
  });

  it("a worker's progress report is checked: a bare worker name (older workers) passes, anything else does not", () => {
    expect(JobProgress.safeParse({ worker: 'h pid 1' }).success).toBe(true);
    expect(JobProgress.safeParse({ worker: 'h pid 1', update: 3, updates: 10 }).success).toBe(true);
    for (const bad of [{ worker: 'x'.repeat(201) }, { worker: 'h', update: -1 }, { worker: 'h', update: 1.5 }, { worker: 'h', extra: 1 }, 7, null])
      expect(JobProgress.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});

describe('a plain experiment seed as a queue job', () => {
  const id = (key: string) => `run-${key}`;
  const config = { ...defaultConfig(), family: 'coupled' as const, agents: 3, updates: 2, seed: 3 };
  const run = { evalTasks: 4, greedy: false, backend: 'wasm' as const };
  const key = experimentSeedKey(config, run, 3);
  const job: ExperimentJobData = { kind: 'experiment', sweep: 's', code: 'c', seed: 3, key, config: configText(config), ...run, start: null };

  it('passes a job of this code, and its command line reads back as the same settings', () => {
    const { data, config: read } = checkExperimentJob(id(key), job, id);
    expect(read).toEqual(config);
    const o = readOptions(experimentArgv(data, read, join(out, 'exp'), null));
    expect(o.config).toEqual(config);
    expect(o).toMatchObject({ seeds: [3], evalTasks: 4, greedy: false, backend: 'wasm', out: join(out, 'exp'), quiet: true, loadPolicy: null, queue: null });
  });

  it('fails a malformed or tampered job with the reason', () => {
    const bad = (data: unknown, jobId = id(key)) => {
      try {
        checkExperimentJob(jobId, data, id);
      } catch (e) {
        expect(e).toBeInstanceOf(BadJob);
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(bad(job, id('0'.repeat(16)))).toMatch(/its id is not the seed's key/);
    expect(bad({ ...job, config: { ...job.config, agents: '999' } })).toMatch(/its config: agents/);
    expect(bad({ ...job, config: { ...job.config, agents: '4' } })).toMatch(/its key is not its settings' and seed's/);
    const { lr: _, ...noLr } = job.config;
    expect(bad({ ...job, config: noLr })).toMatch(/its config lacks lr/);
    expect(bad({ ...job, seed: 4 })).toMatch(/its seed 4 is not its config's 3/);
    expect(bad({ ...job, backend: 'webgpu' })).toMatch(/backend/);
    expect(bad({ ...job, extra: 1 })).toMatch(/extra|Unrecognized/i);
    expect(bad({ ...job, start: { flag: 'load-policy', base64: 'AAAA' } })).toMatch(/its key is not/);
  });
});
