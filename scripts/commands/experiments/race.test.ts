import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const tsx = join('node_modules', '.bin', 'tsx');
const run = (args: string[]) => spawnSync(tsx, ['scripts/commands/experiments/race.ts', ...args], { encoding: 'utf8' });

describe('npm run race', () => {
  it('races the organisations at equal agent-minutes and prints the agent scaling', () => {
    const r = run(['--agents', '4', '--tasks', '3', '--horizon', '40', '--scaling', '1,4']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('the same 160 agent-minutes for everyone');
    const rows = r.stdout.split('\n').filter((l) => /^(single chain|best-of-N|scripted organisation) /.test(l));
    expect(rows).toHaveLength(6);
    expect(rows[0]).toMatch(/^single chain\s+1\s+160\s/);
    expect(r.stdout).toMatch(/organisation\s+1 agents\s+4 agents/);
  }, 60_000);

  it("races a run file's swarm on its own family and team size unless told otherwise", () => {
    const swarm = ['--swarm', 'public/pretrained/long-parallel.swarmrun.json.gz', '--tasks', '2', '--horizon', '30', '--scaling', '8'];
    const own = run(swarm);
    expect(own.status, own.stderr).toBe(0);
    expect(own.stdout).toContain("long-parallel tasks, 8 agents (family and agents of the swarm's run), 2 tasks each");
    expect(own.stdout).toMatch(/^trained swarm\s+8\s+30\s/m);
    const told = run([...swarm, '--family', 'long-search', '--agents', '4']);
    expect(told.status, told.stderr).toBe(0);
    expect(told.stdout).toContain('long-search tasks, 4 agents, 2 tasks each');
  }, 120_000);

  it("gives a run file's swarm three times its own final deadline, as the app does, unless told otherwise", () => {
    // The shipped long-planned swarm trained to 72 minutes; the family's calibrated deadline is 80.
    const swarm = ['--swarm', 'public/pretrained/long-planned.swarmrun.json.gz', '--tasks', '1', '--scaling', '8'];
    const own = run(swarm);
    expect(own.status, own.stderr).toBe(0);
    expect(own.stdout).toMatch(/^trained swarm\s+8\s+216\s/m);
    const other = run([...swarm, '--family', 'long-coupled']);
    expect(other.status, other.stderr).toBe(0);
    expect(other.stdout).toMatch(/^trained swarm\s+8\s+240\s/m);
  }, 120_000);

  it('stops with a usage message and exit code 2 on a bad flag', () => {
    const r = run(['--family', 'chaos']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--family: "chaos" is not one of parallel, coupled, search, mixed');
    expect(r.stderr).toContain('usage: npm run race');
  }, 60_000);
});
