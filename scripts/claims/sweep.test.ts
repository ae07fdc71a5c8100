import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAIM_IDS } from './definitions';
import { CACHE_VERSION, ConditionStore, parseClaimArgs, runList, SCALES } from './runner';
import { checkRunRecord, codeVersion, parseQueueUrl, parseShard, QueueFault, redact, shardRuns } from './sweep';

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
