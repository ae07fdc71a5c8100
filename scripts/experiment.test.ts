import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeRunFile } from '../src/core/runFile';
import type { OrgSummary } from '../src/rl/compare';
import { talkSummary } from './lib/talk';

const tsx = join('node_modules', '.bin', 'tsx');
const run = (args: string[]) => spawnSync(tsx, ['scripts/experiment.ts', ...args], { encoding: 'utf8' });
const out = mkdtempSync(join(tmpdir(), 'swarm-experiment-'));

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run experiment', () => {
  it('trains, evaluates and writes its table, curves and weights', () => {
    const r = run([
      '--agents',
      '2',
      '--updates',
      '3',
      '--prior',
      '1',
      '--tasks-per-update',
      '1',
      '--group-size',
      '2',
      '--eval-tasks',
      '2',
      '--tmax-start',
      '5',
      '--tmax-end',
      '10',
      '--backend',
      'cpu',
      '--quiet',
      '--out',
      out,
    ]);
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
    const small = [
      '--agents',
      '2',
      '--updates',
      '1',
      '--tasks-per-update',
      '1',
      '--group-size',
      '2',
      '--eval-tasks',
      '1',
      '--tmax-start',
      '5',
      '--tmax-end',
      '10',
      '--backend',
      'cpu',
      '--quiet',
      '--out',
      join(out, 'continued'),
    ];
    const r = run([...small, '--init-from', from]);
    expect(r.status, r.stderr).toBe(0);
    const bad = run([...small, '--init-from', from, '--hidden', '16']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--init-from: the weights are for a policy of hidden 64 \/ scorer 32, this trainer has 16 \/ 32/);
  }, 60_000);

  it('trains and evaluates under a structure preset, with its numbers in the curves and the run file', () => {
    const dir = join(out, 'ceo');
    const r = run([
      '--structure',
      'ceo',
      '--budget',
      '30',
      '--agents',
      '3',
      '--updates',
      '2',
      '--tasks-per-update',
      '1',
      '--group-size',
      '2',
      '--eval-tasks',
      '2',
      '--tmax-start',
      '5',
      '--tmax-end',
      '10',
      '--backend',
      'cpu',
      '--quiet',
      '--out',
      dir,
    ]);
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
    const r = run([
      '--interruptions',
      '--conflicts',
      '--agents',
      '3',
      '--updates',
      '2',
      '--tasks-per-update',
      '1',
      '--group-size',
      '2',
      '--eval-tasks',
      '2',
      '--tmax-start',
      '10',
      '--tmax-end',
      '20',
      '--backend',
      'cpu',
      '--quiet',
      '--out',
      dir,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const curve = readFileSync(join(dir, 'training-seed1.csv'), 'utf8').trim().split('\n');
    expect(curve[0]).toMatch(/,wastedMessages,neededShare,interrupted,conflicts$/);
    expect(curve).toHaveLength(3);
    const runFile = decodeRunFile(readFileSync(join(dir, 'run-seed1.swarmrun.json.gz')));
    expect(runFile.ok && runFile.run.config.interruptions && runFile.run.config.conflicts).toBe(true);
    expect(runFile.ok && runFile.run.metrics.every((m) => m.interrupted !== undefined && m.conflicts !== undefined && m.wastedMessages !== undefined)).toBe(
      true,
    );
  }, 60_000);

  it('rejects unknown flags and out-of-range values with a message and exit code 2', () => {
    const r = run(['--agentz', '3', '--agents', '40', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown flag --agentz/);
    expect(r.stderr).toMatch(/--agents: 40 is out of range/);
  });
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
