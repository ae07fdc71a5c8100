import * as tf from '@tensorflow/tfjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/rl/config';
import { CLAIMS, CONDITIONS, useSuite } from './definitions';
import { claimsUsage, parseClaimArgs } from './commandLine';
import { writeSummary } from './report';
import { runClaims } from './runner';
import { conditionsFor, fullConfig, SCALE_NAMES, SCALES, scaleWithSeeds } from './scale';
import { ConditionStore } from './conditionStore';
import { parseTrainOneArgs, trainOneArgv, trainOneFromArgs } from './trainOne';

const out = mkdtempSync(join(tmpdir(), 'swarm-claims-'));

beforeAll(async () => {
  await tf.setBackend('cpu');
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('claim definitions', () => {
  it('every claim names known conditions; parents come first', () => {
    for (const c of CLAIMS) for (const id of c.conditions) expect(CONDITIONS[id], `${c.id}: ${id}`).toBeDefined();
    const order = conditionsFor(['C5']);
    expect(order.indexOf('coupled')).toBeLessThan(order.indexOf('critic-lambda'));
    expect(fullConfig('critic-lambda')).toMatchObject({ family: 'long-planned', agents: 8, critic: true, lambda: 0.95, tmaxStart: 72, updates: 75, prior: 0 });
    expect(SCALES.smoke.config(fullConfig('coupled'))).toMatchObject({ agents: 2, updates: 2, tmaxEnd: 18 });
  });

  it("runs the short families' setting with --claim-suite short, into its own folder, with the same condition ids", () => {
    try {
      expect(parseClaimArgs(['--claim', 'C5', '--claim-suite', 'short'])).toMatchObject({ out: join('results', 'claims-short') });
      expect(fullConfig('critic-lambda')).toMatchObject({ family: 'coupled', agents: 8, critic: true, lambda: 0.95, tmaxStart: 24, updates: 100, prior: 0 });
      expect(fullConfig('coupled')).toMatchObject({ family: 'coupled', tmaxStart: 8, tmaxEnd: 24, updates: 600 });
      expect(CLAIMS.find((c) => c.id === 'C4')!.conditions).toEqual(['deadline-40', 'penalty-40', 'penalty-80']);
      expect(parseTrainOneArgs(trainOneArgv({ scale: 'full', out: 'o', condition: 'penalty-40', seed: 1, backend: 'cpu', quiet: true })).condition).toBe(
        'penalty-40',
      );
      expect(() => parseClaimArgs(['--claim', 'C1', '--claim-suite', 'medium'])).toThrow(
        /--claim-suite: "medium" is not one of planned, planned-300, long, second-round, short/,
      );
      // The short and second-round suites keep the rules they were measured under.
      expect(fullConfig('coupled')).toMatchObject({ interruptions: false, broadcasts: false, entropy: 0.001, entropyEnd: 1 });
      expect(parseClaimArgs(['--claim', 'C1', '--claim-suite', 'second-round'])).toMatchObject({ out: join('results', 'claims-second-round') });
      expect(fullConfig('coupled')).toMatchObject({ family: 'long-coupled', interruptions: false, broadcasts: false, entropy: 0.0002, entropyEnd: 1 });
      // The long suite: long-coupled at 20 -> 80, the default sprint before long-planned, into its own folder.
      expect(parseClaimArgs(['--claim', 'C4', '--claim-suite', 'long'])).toMatchObject({ out: join('results', 'claims-long') });
      expect(fullConfig('coupled')).toMatchObject({ family: 'long-coupled', tmaxStart: 20, tmaxEnd: 80, interruptions: true });
      expect(CLAIMS.find((c) => c.id === 'C4')!.conditions).toEqual(['deadline-80', 'penalty-80', 'penalty-160']);
      // The planned sprint at the former budget (300 updates of 4 x 8), into its own folder.
      expect(parseClaimArgs(['--claim', 'C1', '--claim-suite', 'planned-300'])).toMatchObject({ out: join('results', 'claims-planned-300') });
      expect(fullConfig('coupled')).toMatchObject({ family: 'long-planned', updates: 300, tasksPerUpdate: 4, groupSize: 8, tmaxEnd: 72 });
      expect(fullConfig('penalty-144')).toMatchObject({ agents: 8, updates: 200, tasksPerUpdate: 4, groupSize: 8 });
    } finally {
      useSuite('planned');
    }
    expect(fullConfig('coupled')).toMatchObject({
      family: 'long-planned',
      tmaxStart: 20,
      tmaxEnd: 72,
      interruptions: true,
      broadcasts: true,
      entropyEnd: 0.25,
    });
    // The default suite's default run is the app's default run.
    const app = defaultConfig();
    expect(fullConfig('coupled')).toMatchObject({ updates: app.updates, tasksPerUpdate: app.tasksPerUpdate, groupSize: app.groupSize, lr: app.lr });
    expect(CLAIMS.find((c) => c.id === 'C4')!.conditions).toEqual(['deadline-72', 'penalty-72', 'penalty-144']);
    expect(fullConfig('penalty-144')).toMatchObject({ family: 'long-planned', agents: 8, updates: 300, tmaxStart: 144, tmaxEnd: 144, latencyPenalty: 1 });
  });

  it('reads the command line', () => {
    expect(parseClaimArgs(['--claim', 'all']).claims).toHaveLength(9);
    expect(parseClaimArgs(['--claim', 'c3,C1', '--claim-scale', 'smoke'])).toMatchObject({
      claims: ['C1', 'C3'],
      scale: 'smoke',
      out: join('results', 'claims-smoke'),
    });
    expect(() => parseClaimArgs(['--claim', 'C10'])).toThrow(/unknown claim "C10"/);
    expect(() => parseClaimArgs(['--claim', 'C1', '--agents', '4'])).toThrow(/--agents cannot be combined/);
    expect(() => parseClaimArgs(['--claim', 'C1', '--claim-scale', 'huge'])).toThrow(/claim-scale/);
    expect(() => parseClaimArgs(['--claim', 'C1', '--bogus=1', '--quiet=yes'])).toThrow(/^--bogus cannot be combined with --claim .*\n--quiet takes no value$/);
  });

  it('reads --seeds strictly; other seeds get their own default output folder', () => {
    expect(parseClaimArgs(['--claim', 'C1'])).toMatchObject({ seeds: [1, 2, 3], jobs: 1, out: join('results', 'claims') });
    expect(parseClaimArgs(['--claim', 'C1', '--seeds', '1,2,3'])).toMatchObject({ seeds: [1, 2, 3], out: join('results', 'claims') });
    expect(parseClaimArgs(['--claim', 'C1', '--seeds', '7,8,9'])).toMatchObject({ seeds: [7, 8, 9], out: join('results', 'claims-seeds-7-8-9') });
    expect(parseClaimArgs(['--claim', 'C1', '--seeds=3,2,1', '--claim-scale', 'smoke'])).toMatchObject({
      seeds: [3, 2, 1],
      out: join('results', 'claims-smoke-seeds-3-2-1'),
    });
    expect(parseClaimArgs(['--claim', 'C1', '--seeds', '0', '--out', 'x'])).toMatchObject({ seeds: [0], out: 'x' });
    for (const bad of ['1,,2', '0x8', '1e1', '-1', '1.5', '', ' 1', '1,', '2147483648', 'a'])
      expect(() => parseClaimArgs(['--claim', 'C1', `--seeds=${bad}`]), bad).toThrow(/^--seeds: .* is not a comma-separated list of seeds/);
    expect(() => parseClaimArgs(['--claim', 'C1', '--seeds', '4,5,4'])).toThrow(/^--seeds: "4,5,4" lists seed 4 twice$/);
    expect(() => parseClaimArgs(['--claim', 'C1', '--seeds'])).toThrow(/--seeds needs a value/);
  });

  it('reads --jobs from 1 to 16 and lists both flags in the help', () => {
    expect(parseClaimArgs(['--claim', 'C1', '--jobs', '16']).jobs).toBe(16);
    for (const bad of ['0', '17', '2.5', '-1', 'two', '', '0x2'])
      expect(() => parseClaimArgs(['--claim', 'C1', `--jobs=${bad}`]), bad).toThrow(/^--jobs: .*(is not|is out of range:) an integer from 1 to 16$/);
    expect(() => parseClaimArgs(['--claim', 'C1', '--jobs'])).toThrow(/--jobs needs a value/);
    expect(claimsUsage()).toMatch(/--jobs +runs to train at once, each in its own child process, 1\.\.16/);
    expect(claimsUsage()).toMatch(/--seeds +comma-separated training seeds/);
  });

  it('round-trips the flags of a child process', () => {
    const o = { scale: 'smoke', out: join(out, 'x y'), condition: 'critic-gamma', seed: 7, backend: 'cpu', quiet: true, key: '0123456789abcdef' } as const;
    expect(parseTrainOneArgs(trainOneArgv(o))).toEqual(o);
    expect(parseTrainOneArgs(trainOneArgv({ ...o, quiet: false, key: undefined }))).toEqual({ ...o, quiet: false, key: undefined });
    expect(() => parseTrainOneArgs(['--scale', 'smoke', '--condition', 'nope', '--seed', '1,2', '--backend', 'cpu'])).toThrow(
      /--out is required\n--condition: unknown condition "nope"\n--seed: "1,2" is not one seed/,
    );
  });

  it('the summary names the seeds, and marks a verdict measured on other seeds', () => {
    const dir = join(out, 'summary');
    mkdirSync(join(dir, 'C2'), { recursive: true });
    writeFileSync(
      join(dir, 'C2', 'verdict.json'),
      JSON.stringify({ id: 'C2', verdict: 'partly', parts: [{ outcome: 'pass' }, { outcome: 'fail' }], scale: 'full', seeds: [4, 5] }),
    );
    const text = writeSummary(dir, SCALES.full);
    expect(text).toMatch(/^# Claims \(scale `full`, seeds 1, 2, 3\)\n\nEach claim is run with `npm run experiment -- --claim <id> --claim-scale full`;/);
    expect(text).toMatch(/\| \[C2\]\(C2\/README.md\) \| .* \| partly reproduced \(seeds 4, 5\) \| pass, fail \|/);
    expect(writeSummary(dir, scaleWithSeeds('full', [4, 5]))).toMatch(/\| partly reproduced \| pass, fail \|/);
  });

  it('a child process refuses a bad command line and a key that is not its own', async () => {
    const o = { scale: 'smoke', out: join(out, 'child'), condition: 'coupled', seed: 1, backend: 'cpu', quiet: true } as const;
    expect(await trainOneFromArgs(['--scale', 'smoke'])).toBe(2);
    expect(await trainOneFromArgs(trainOneArgv({ ...o, key: 'ffffffffffffffff' }))).toBe(1);
    expect(readdirSync(join(out, 'child', 'cache'))).toEqual([]);
  });

  it('cache keys: one per condition and seed, the same whatever other seeds the run has', () => {
    const seeds = [0, 1, 2, 3, 7, 8, 9];
    for (const name of SCALE_NAMES) {
      const store = new ConditionStore(scaleWithSeeds(name, seeds), out);
      const owner = new Map<string, { id: string; seed: number }>();
      for (const id of Object.keys(CONDITIONS))
        for (const seed of seeds) {
          const key = store.key(id, seed);
          const other = owner.get(key);
          if (other) {
            // Two runs share a key only when they are the same run: at the full budget never; at the
            // smoke budget two conditions may shrink to the same settings (then they share the run).
            const what = `${name}: ${id} seed ${seed} has the key of ${other.id} seed ${other.seed}`;
            expect(name, what).not.toBe('full');
            expect(other.seed, what).toBe(seed);
            expect(store.config(id), what).toEqual(store.config(other.id));
            expect(store.parentKey(id, seed), what).toBe(store.parentKey(other.id, seed));
          }
          owner.set(key, { id, seed });
          expect(new ConditionStore(scaleWithSeeds(name, [seed]), out).key(id, seed)).toBe(key);
          if (SCALES[name].seeds.includes(seed)) expect(new ConditionStore(SCALES[name], out).key(id, seed)).toBe(key);
        }
    }
  });
});

describe('claims runner, smoke scale', () => {
  it('runs C1 with tiny settings, writes its table, plots and verdict, and resumes from the cache', async () => {
    const lines: string[] = [];
    const [report] = await runClaims({ claims: ['C1'], scale: 'smoke', out, quiet: true, log: (l) => lines.push(l) });
    expect(lines[0]).toMatch(/3 run\(s\) to train/);
    expect(['reproduced', 'partly', 'not reproduced']).toContain(report.verdict);
    const md = readFileSync(join(out, 'C1', 'README.md'), 'utf8');
    expect(md).toMatch(/^# C1: /);
    expect(md).toMatch(/\*\*Verdict: (reproduced|partly reproduced|not reproduced)\*\*/);
    expect(md).toMatch(/\| organisation \| return at deadline \|/);
    expect(md).toMatch(/\| trained swarm \| /);
    expect(md).toMatch(/\| trained swarm > single chain \| .* \| (pass|mixed|fail) \|/);
    expect(readFileSync(join(out, 'C1', 'returns.svg'), 'utf8')).toMatch(/^<svg /);
    expect(existsSync(join(out, 'C1', 'anytime.svg'))).toBe(true);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toMatch(/\| C2 \| .* \| pending \(not run into this folder\) \|/);
    expect(readdirSync(join(out, 'cache')).filter((f) => f.endsWith('.policy.json'))).toHaveLength(3);
    const again: string[] = [];
    await runClaims({ claims: ['C1'], scale: 'smoke', out, quiet: true, log: (l) => again.push(l) });
    expect(again[0]).toMatch(/0 run\(s\) to train/);
    expect(readFileSync(join(out, 'C1', 'README.md'), 'utf8')).toBe(md);
  });

  it('runs from the experiment command line (a claim without training), on other seeds', () => {
    const r = spawnSync(
      join('node_modules', '.bin', 'tsx'),
      [
        'scripts/commands/experiments/experiment.ts',
        '--claim',
        'C8',
        '--claim-scale',
        'smoke',
        '--backend',
        'cpu',
        '--seeds',
        '4,5',
        '--jobs',
        '2',
        '--out',
        join(out, 'cli'),
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/C8: (reproduced|partly reproduced|not reproduced)/);
    expect(existsSync(join(out, 'cli', 'C8', 'mix-grid.svg'))).toBe(true);
    expect(readFileSync(join(out, 'cli', 'C8', 'README.md'), 'utf8')).toContain(
      'seeds 4, 5).\n\n```sh\nnpm run experiment -- --claim C8 --claim-scale smoke --seeds 4,5\n```',
    );
    expect(readFileSync(join(out, 'cli', 'README.md'), 'utf8')).toMatch(
      /^# Claims \(scale `smoke`, seeds 4, 5\)\n\nEach claim is run with `npm run experiment -- --claim <id> --claim-scale smoke --seeds 4,5`/,
    );
  });

  it('stops with exit code 2 on a bad seed list', () => {
    const r = spawnSync(
      join('node_modules', '.bin', 'tsx'),
      ['scripts/commands/experiments/experiment.ts', '--claim', 'C8', '--claim-scale', 'smoke', '--seeds', '1,,2'],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: --seeds: "1,,2" is not a comma-separated list of seeds .*: an empty entry\n/);
  });
});

/** The cache records of a folder by file name, without the one field that may differ between runs (the wall-clock). */
function cacheRecords(dir: string): Map<string, Record<string, unknown>> {
  const records = new Map<string, Record<string, unknown>>();
  for (const f of readdirSync(join(dir, 'cache')).sort()) {
    const value = JSON.parse(readFileSync(join(dir, 'cache', f), 'utf8')) as Record<string, unknown>;
    if (!f.endsWith('.policy.json')) {
      expect(typeof value.trainSeconds).toBe('number');
      delete value.trainSeconds;
    }
    records.set(f, value);
  }
  return records;
}

describe('claims runner, --jobs', () => {
  it('trains C5 (coupled, then its continuations) in child processes exactly as in one process', { timeout: 240_000 }, async () => {
    const claim = CLAIMS.find((c) => c.id === 'C5')!;
    expect(claim.conditions.some((id) => CONDITIONS[id].from)).toBe(true); // a claim with continuations
    const needed = conditionsFor(['C5']);
    const seeds = [2];
    const one = join(out, 'jobs-1');
    const two = join(out, 'jobs-2');
    await runClaims({ claims: ['C5'], scale: 'smoke', seeds, out: one, jobs: 1, quiet: true, log: () => {} });
    const lines: string[] = [];
    await runClaims({ claims: ['C5'], scale: 'smoke', seeds, out: two, jobs: 2, backend: 'cpu', quiet: true, log: (l) => lines.push(l) });
    expect(lines[0]).toContain(`x 1 seed (2), ${needed.length} run(s) to train: ${needed.map((id) => `${id}/2`).join(' ')}, 2 at a time in child processes`);
    const a = cacheRecords(one);
    const b = cacheRecords(two);
    expect(a.size).toBe(2 * needed.length);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [f, record] of a) {
      const other = b.get(f)!;
      expect(Object.keys(other).sort(), f).toEqual(Object.keys(record).sort());
      for (const field of Object.keys(record)) expect(other[field], `${f}: ${field}`).toEqual(record[field]);
    }
    const md = readFileSync(join(two, 'C5', 'README.md'), 'utf8');
    expect(md).toContain('(scale `smoke`, seeds 2).');
    expect(md).toContain('npm run experiment -- --claim C5 --claim-scale smoke --seeds 2\n');
    expect(md.replace(/\| \d+:\d\d \|/g, '| time |')).toBe(readFileSync(join(one, 'C5', 'README.md'), 'utf8').replace(/\| \d+:\d\d \|/g, '| time |'));
  });

  it('fails naming the condition and seed when a child process fails', { timeout: 120_000 }, async () => {
    const dir = join(out, 'jobs-fail');
    const scale = scaleWithSeeds('smoke', [3]);
    // A folder where the child writes its weights' temporary file: the write fails after training.
    mkdirSync(join(dir, 'cache', `${new ConditionStore(scale, dir).key('coupled', 3)}.policy.json.tmp`), { recursive: true });
    await expect(runClaims({ claims: ['C1'], scale: 'smoke', seeds: [3], out: dir, jobs: 2, backend: 'cpu', quiet: true, log: () => {} })).rejects.toThrow(
      /^training coupled seed 3 failed: its child process exited with code 1/,
    );
    expect(existsSync(join(dir, 'C1'))).toBe(false);
  });
});
