import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeRunFile } from '../../../src/core/runFile';
import type { OrgSummary } from '../../../src/rl/compare';
import { talkSummary } from '../../lib/talk';

const tsx = join('node_modules', '.bin', 'tsx');
const run = (args: string[]) => spawnSync(tsx, ['scripts/commands/experiments/experiment.ts', ...args], { encoding: 'utf8' });
const out = mkdtempSync(join(tmpdir(), 'swarm-experiment-'));
/** What every run here shares: one small group per update, on the CPU backend, without a progress bar. */
const QUICK = { 'tasks-per-update': 1, 'group-size': 2, backend: 'cpu', quiet: true };
/** A command line from flags and their values (`true`: a bare flag), in the order given. */
const flags = (o: Record<string, string | number | boolean>) => Object.entries(o).flatMap(([k, v]) => (v === true ? [`--${k}`] : [`--${k}`, String(v)]));

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run experiment', () => {
  it('trains, evaluates and writes its table, curves and weights', () => {
    const r = run(flags({ agents: 2, updates: 3, prior: 1, ...QUICK, 'eval-tasks': 2, 'tmax-start': 5, 'tmax-end': 10, out }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/scripted organisation/);
    expect(r.stdout).toMatch(/trained swarm/);
    const csv = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n');
    expect(csv.map((l) => /^("[^"]*"|[^,]*)/.exec(l)![1])).toEqual([
      'organisation',
      'random',
      'single chain',
      'best-of-N',
      'scripted organisation',
      'imitation prior',
      'trained swarm',
      '"trained swarm, muted"',
    ]);
    expect(r.stdout).toMatch(/trained swarm, muted/);
    expect(r.stdout).toMatch(/Talk is worth [+-]\d\.\d{3} of the tests .* \d+% of its deliveries/);
    expect(readFileSync(join(out, 'training-seed1.csv'), 'utf8').trim().split('\n')).toHaveLength(5);
    expect(JSON.parse(readFileSync(join(out, 'policy-seed1.json'), 'utf8')).format).toBe('swarm-policy');
    const runFile = decodeRunFile(readFileSync(join(out, 'run-seed1.swarmrun.json.gz')));
    expect(runFile.ok && runFile.run.metrics.map((m) => m.phase)).toEqual(['prior', 'rlcr', 'rlcr', 'rlcr']);
  }, 60_000);

  it('continues from the last checkpoint of a run file with --init-from', () => {
    const from = join(out, 'run-seed1.swarmrun.json.gz');
    const small = { agents: 2, updates: 1, ...QUICK, 'eval-tasks': 1, 'tmax-start': 5, 'tmax-end': 10 };
    const r = run(flags({ ...small, out: join(out, 'continued'), 'init-from': from }));
    expect(r.status, r.stderr).toBe(0);
    const bad = run(flags({ ...small, out: join(out, 'continued-narrower'), 'init-from': from, hidden: 16 }));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--init-from: the weights are for a policy of hidden 64 \/ scorer 32, this trainer has 16 \/ 32/);
  }, 60_000);

  it('trains and evaluates under a structure preset, with its numbers in the curves and the run file', () => {
    const dir = join(out, 'ceo');
    const r = run(flags({ structure: 'ceo', budget: 30, agents: 3, updates: 2, ...QUICK, 'eval-tasks': 2, 'tmax-start': 5, 'tmax-end': 10, out: dir }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/structure ceo \(budget 30 agent-minutes\)/);
    expect(r.stdout).toMatch(/scripted structure/);
    expect(r.stdout).toMatch(/headCount/);
    expect(readFileSync(join(dir, 'training-seed1.csv'), 'utf8').split('\n')[0]).toMatch(/,headCount,budgetSpent,hires,fires$/);
    const runFile = decodeRunFile(readFileSync(join(dir, 'run-seed1.swarmrun.json.gz')));
    expect(runFile.ok && runFile.run.metrics.every((m) => (m.structure?.budgetSpent ?? Infinity) <= 30)).toBe(true);
  }, 60_000);

  it('trains under the costs of talk and of piling on, with their counters in the curve and the run file', () => {
    const dir = join(out, 'costs');
    const r = run(
      flags({ interruptions: true, conflicts: true, agents: 3, updates: 2, ...QUICK, 'eval-tasks': 2, 'tmax-start': 10, 'tmax-end': 20, out: dir }),
    );
    expect(r.status, r.stderr).toBe(0);
    const curve = readFileSync(join(dir, 'training-seed1.csv'), 'utf8').trim().split('\n');
    expect(curve[0]).toMatch(/,wastedMessages,neededShare,interrupted,conflicts,sidePosts,sideShare,caught,attempts$/);
    expect(curve).toHaveLength(3);
    const runFile = decodeRunFile(readFileSync(join(dir, 'run-seed1.swarmrun.json.gz')));
    expect(runFile.ok && runFile.run.config.interruptions && runFile.run.config.conflicts).toBe(true);
    expect(runFile.ok && runFile.run.metrics.every((m) => m.interrupted !== undefined && m.conflicts !== undefined && m.wastedMessages !== undefined)).toBe(
      true,
    );
  }, 60_000);

  it('trains under a channel policy with a monitored unofficial board, and prints their numbers', () => {
    const dir = join(out, 'channels');
    const r = run(
      flags({
        channels: 'hub',
        'side-board': 'monitored',
        'catch-rate': 1,
        'catch-cost': 0.01,
        agents: 3,
        updates: 2,
        ...QUICK,
        'eval-tasks': 2,
        'tmax-start': 10,
        'tmax-end': 20,
        out: dir,
      }),
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Channels: hub \(DMs only to or from agent 0; everyone posts and reads\)\. Attempts per episode, training first -> last update, then evaluation: 1: [\d.]+ -> [\d.]+, [\d.]+$/m,
    );
    expect(r.stdout).toMatch(
      /^Unofficial board \(monitored: catch rate 1, 0\.01 of the return a caught post\)\. Share of messages on it, .*Caught per episode \(evaluation\): 1: [\d.]+$/m,
    );
    const runFile = decodeRunFile(readFileSync(join(dir, 'run-seed1.swarmrun.json.gz')));
    expect(runFile.ok && [runFile.run.config.channels, runFile.run.config.sideBoard]).toEqual(['hub', 'monitored']);
    // The counters are in every row, and a caught post is one of the unofficial posts.
    expect(runFile.ok && runFile.run.metrics.every((m) => m.caught !== undefined && m.attempts !== undefined && m.caught <= (m.sidePosts ?? 0))).toBe(true);
  }, 60_000);

  it('trains on two threads with --threads 2, and refuses more threads than task groups', () => {
    const dir = join(out, 'threads');
    const small = { agents: 2, updates: 2, ...QUICK, 'tasks-per-update': 2, 'eval-tasks': 2, 'tmax-start': 5, 'tmax-end': 10 };
    const r = run(flags({ ...small, threads: 2, out: dir }));
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'training-seed1.csv'), 'utf8').trim().split('\n')).toHaveLength(3);
    const runFile = decodeRunFile(readFileSync(join(dir, 'run-seed1.swarmrun.json.gz')));
    expect(runFile.ok && runFile.run.metrics.length).toBe(2);
    const bad = run(flags({ ...small, threads: 3, out: join(dir, 'x') }));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--threads 3: each thread needs a task group of its own, and an update has 2 \(--tasks-per-update\)/);
  }, 60_000);

  it('rejects unknown flags and out-of-range values with a message and exit code 2', () => {
    const r = run(['--agentz', '3', '--agents', '40', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown flag --agentz/);
    expect(r.stderr).toMatch(/--agents: 40 is out of range/);
  });
});

/** The experiment as `npm run experiment` starts it (Node with tsx's loader, no tsx parent process between). */
function start(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/commands/experiments/experiment.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
  return { child, done };
}
const experiment = (args: string[]) => start(args).done;

/** Tiny settings: seconds per seed. */
const TINY = [
  '--family',
  'parallel',
  '--agents',
  '2',
  '--tasks-per-update',
  '1',
  '--group-size',
  '2',
  '--eval-tasks',
  '2',
  '--tmax-start',
  '8',
  '--tmax-end',
  '12',
];
const TINY_NET = ['--hidden', '8', '--scorer', '4', '--backend', 'cpu', '--quiet'];

type Summary = { results: { seed: number; trainSeconds: number; updatesPerSecond: number; curve: Record<string, unknown>[] }[] };
const summary = (dir: string) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
/** The summary without what measures time (training seconds and rate, each update's milliseconds). */
const untimed = (s: Summary) => ({
  ...s,
  results: s.results.map(({ trainSeconds: _t, updatesPerSecond: _u, ...r }) => ({ ...r, curve: r.curve.map(({ collectMs: _c, learnMs: _l, ...m }) => m) })),
});
/** The printed report without its timing line and with the folder's name taken out. */
const report = (stdout: string, dir: string) =>
  stdout
    .split('\n')
    .filter((l) => !l.startsWith('Training wall-clock per seed'))
    .join('\n')
    .replaceAll(dir, '<out>');

describe('npm run experiment: resuming into the same --out', () => {
  it('takes the finished seeds from the folder and trains only the rest, with the same summary as one run', async () => {
    const args = [...TINY, '--updates', '2', ...TINY_NET];
    const once = join(out, 'resume-once');
    const twice = join(out, 'resume-twice');
    const [a, b1] = await Promise.all([experiment([...args, '--seeds', '1,2', '--out', once]), experiment([...args, '--seeds', '1', '--out', twice])]);
    expect(a.status, a.stderr).toBe(0);
    expect(b1.status, b1.stderr).toBe(0);
    const seed1Csv = readFileSync(join(twice, 'training-seed1.csv'), 'utf8');
    const seed1 = summary(twice).results[0];
    const b2 = await experiment([...args, '--seeds', '1,2', '--out', twice]);
    expect(b2.status, b2.stderr).toBe(0);
    expect(b2.stderr).toContain(`Resuming in ${twice}/: seed 1 taken from the folder (trained earlier with these settings), training seed 2`);
    expect(report(b2.stdout, twice)).toBe(report(a.stdout, once));
    expect(untimed(summary(twice))).toEqual(untimed(summary(once)));
    expect(readFileSync(join(twice, 'summary.csv'), 'utf8')).toBe(readFileSync(join(once, 'summary.csv'), 'utf8'));
    // Seed 1 is the first run's, times included, and its files were left as they were.
    expect(summary(twice).results[0]).toEqual(seed1);
    expect(readFileSync(join(twice, 'training-seed1.csv'), 'utf8')).toBe(seed1Csv);
    for (const f of ['training-seed2.csv', 'policy-seed2.json', 'run-seed2.swarmrun.json.gz', 'result-seed2.json'])
      expect(existsSync(join(twice, f)), f).toBe(true);

    const other = await experiment([...args, '--updates', '3', '--seeds', '1,2', '--out', twice]);
    expect(other.status).toBe(2);
    expect(other.stderr.trim()).toBe(
      `error: --out ${twice} holds seeds trained with other settings: --updates (2 in the folder, 3 in this run); use the same settings to resume it, or another --out`,
    );
    expect(readFileSync(join(twice, 'training-seed1.csv'), 'utf8')).toBe(seed1Csv);
  }, 180_000);

  it('on Ctrl-C says what it kept and the command that resumes, exits 130, and that command finishes the rest', async () => {
    const dir = join(out, 'interrupted');
    const args = [...TINY, '--updates', '30', ...TINY_NET, '--seeds', '1,2', '--out', dir];
    const run = start(args);
    await expect.poll(() => existsSync(join(dir, 'result-seed1.json')), { timeout: 120_000, interval: 50 }).toBe(true);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.status).toBe(130);
    const command = `npm run experiment -- ${args.join(' ')}`;
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      `interrupted during seed 2: kept seed 1 in ${dir}/ (curve, policy, run file and result of each); resume with: ${command}`,
    );
    expect(existsSync(join(dir, 'result-seed2.json'))).toBe(false);
    const resumed = await experiment(args);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('seed 1 taken from the folder');
    expect(summary(dir).results.map((s) => s.seed)).toEqual([1, 2]);
  }, 180_000);
});

describe('talkSummary', () => {
  const row = (org: OrgSummary['org'], ret: number, neededShare = 0) => ({ org, ret, neededShare }) as OrgSummary;
  it('gives the gain from talk per seed and the share of needed deliveries', () => {
    const line = talkSummary([
      { seed: 1, orgs: [row('trained swarm', 0.8, 0.5), row('trained swarm, muted', 0.7)] },
      { seed: 2, orgs: [row('trained swarm', 0.6, 0.7), row('trained swarm, muted', 0.65)] },
    ]);
    expect(line).toMatch(/^Talk is worth \+0\.025 of the tests .*per seed 1: \+0\.100, 2: -0\.050\); 60% of its deliveries/);
  });
  it('is null without a muted row', () => {
    expect(talkSummary([{ seed: 1, orgs: [row('trained swarm', 0.8)] }])).toBeNull();
  });
});
