import * as tf from '@tensorflow/tfjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIMS, CONDITIONS } from './definitions';
import { conditionsFor, fullConfig, parseClaimArgs, runClaims, SCALES } from './runner';

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
    expect(fullConfig('critic-lambda')).toMatchObject({ family: 'coupled', agents: 8, critic: true, lambda: 0.95, tmaxStart: 24, updates: 100, prior: 0 });
    expect(SCALES.smoke.config(fullConfig('coupled'))).toMatchObject({ agents: 2, updates: 2, tmaxEnd: 6 });
  });

  it('reads the command line', () => {
    expect(parseClaimArgs(['--claim', 'all']).claims).toHaveLength(9);
    expect(parseClaimArgs(['--claim', 'c3,C1', '--claim-scale', 'smoke'])).toMatchObject({ claims: ['C1', 'C3'], scale: 'smoke', out: join('results', 'claims-smoke') });
    expect(() => parseClaimArgs(['--claim', 'C10'])).toThrow(/unknown claim "C10"/);
    expect(() => parseClaimArgs(['--claim', 'C1', '--agents', '4'])).toThrow(/--agents cannot be combined/);
    expect(() => parseClaimArgs(['--claim', 'C1', '--claim-scale', 'huge'])).toThrow(/claim-scale/);
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
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toMatch(/\| \[C2\]\(C2\/README.md\) \| .* \| pending \|/);
    expect(readdirSync(join(out, 'cache')).filter((f) => f.endsWith('.policy.json'))).toHaveLength(3);
    const again: string[] = [];
    await runClaims({ claims: ['C1'], scale: 'smoke', out, quiet: true, log: (l) => again.push(l) });
    expect(again[0]).toMatch(/0 run\(s\) to train/);
    expect(readFileSync(join(out, 'C1', 'README.md'), 'utf8')).toBe(md);
  });

  it('runs from the experiment command line (a claim without training)', () => {
    const r = spawnSync(join('node_modules', '.bin', 'tsx'), ['scripts/experiment.ts', '--claim', 'C8', '--claim-scale', 'smoke', '--backend', 'cpu', '--out', join(out, 'cli')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/C8: (reproduced|partly reproduced|not reproduced)/);
    expect(existsSync(join(out, 'cli', 'C8', 'mix-grid.svg'))).toBe(true);
  });
});
