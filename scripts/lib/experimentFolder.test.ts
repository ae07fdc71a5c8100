import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/rl/config';
import { ExperimentFolder, experimentSettings, settingsDifferences, type ExperimentSettings } from './experimentFolder';

const root = mkdtempSync(join(tmpdir(), 'swarm-experiment-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const d = join(root, String(n++));
  mkdirSync(d);
  return d;
};

const runner: Omit<ExperimentSettings, 'config'> = { evalTasks: 64, greedy: false, backend: 'wasm', loadPolicy: null, initFrom: null };
const settings = (over: Partial<ReturnType<typeof defaultConfig>> = {}, r: Partial<typeof runner> = {}) =>
  experimentSettings({ ...defaultConfig(), ...over }, { ...runner, ...r });
/** A seed's result as the experiment keeps it, with a curve column this build does not know. */
const result = (seed: number) => ({ seed, trainSeconds: 1.25, curve: [{ update: 1, ret: 0.5, futureMetric: 7 }], orgs: [] });

const open = (dir: string, s = settings()) => ExperimentFolder.open<ReturnType<typeof result>>(dir, s);
const refusal = (o: ReturnType<typeof open>) => (o instanceof ExperimentFolder ? 'opened' : o.refused);

describe('ExperimentFolder', () => {
  it('keeps a finished seed whole and gives it back to a re-opening with the same settings, extra columns included', () => {
    const dir = fresh();
    const a = open(dir) as ExperimentFolder<ReturnType<typeof result>>;
    expect(a.finished(1)).toBeUndefined();
    a.keep(1, result(1));
    const b = open(dir) as ExperimentFolder<ReturnType<typeof result>>;
    expect(b).toBeInstanceOf(ExperimentFolder);
    expect(b.finished(1)).toEqual(result(1));
    expect(b.finished(2)).toBeUndefined();
    expect(readdirSync(dir).sort()).toEqual(['experiment.json', 'result-seed1.json']);
  });

  it('does not depend on the seed the config carries: the seeds are the ones it keeps', () => {
    const dir = fresh();
    (open(dir, settings({ seed: 1 })) as ExperimentFolder<unknown>).keep(3, result(3));
    expect((open(dir, settings({ seed: 9 })) as ExperimentFolder<unknown>).finished(3)).toEqual(result(3));
  });

  it('refuses other settings once a seed is kept, naming every setting that differs with both values', () => {
    const dir = fresh();
    (open(dir) as ExperimentFolder<unknown>).keep(1, result(1));
    expect(refusal(open(dir, settings({ updates: 7, agents: 3 }, { backend: 'cpu' })))).toBe(
      `${dir} holds seeds trained with other settings: --agents (8 in the folder, 3 in this run), --updates (${defaultConfig().updates} in the folder, 7 in this run), --backend (wasm in the folder, cpu in this run); use the same settings to resume it, or another --out`,
    );
    expect(refusal(open(dir, settings({}, { initFrom: 'abcdef0123456789' })))).toMatch(
      /--init-from \(none in the folder, a file with hash abcdef01 in this run\)/,
    );
  });

  it('lets other settings take over a folder whose settings kept no seed (a run that stopped in its first seed)', () => {
    const dir = fresh();
    open(dir, settings({ updates: 5 }));
    const taken = open(dir, settings({ updates: 6 })) as ExperimentFolder<unknown>;
    expect(taken).toBeInstanceOf(ExperimentFolder);
    taken.keep(1, result(1));
    expect(refusal(open(dir, settings({ updates: 5 })))).toMatch(/--updates \(6 in the folder, 5 in this run\)/);
    expect(readdirSync(dir).sort()).toEqual(['experiment.json', 'result-seed1.json']);
  });

  it("names a setting a newer build added (the folder's file lacks it) rather than guessing its value", () => {
    const kept = settings();
    const asked = settings();
    delete (kept.config as Record<string, unknown>).shaping;
    expect(settingsDifferences(kept, asked)).toEqual([`--shaping (not set in the folder, ${String(asked.config.shaping)} in this run)`]);
  });

  it("refuses a folder holding an experiment's files without its settings, and a settings file that is not one", () => {
    const old = fresh();
    writeFileSync(join(old, 'training-seed1.csv'), 'update\n1\n');
    writeFileSync(join(old, 'notes.txt'), 'mine');
    expect(refusal(open(old))).toBe(
      `${old} holds an experiment's files (training-seed1.csv) but not its settings (experiment.json), so they cannot be resumed: use another --out`,
    );
    const broken = fresh();
    writeFileSync(join(broken, 'experiment.json'), '{"format":"something else"}');
    expect(refusal(open(broken))).toMatch(/experiment\.json is not an experiment's settings file: use another --out$/);
    const other = fresh();
    writeFileSync(join(other, 'notes.txt'), 'mine');
    expect(open(other)).toBeInstanceOf(ExperimentFolder);
  });

  it('does not take a record written under other settings or torn by a crash', () => {
    const dir = fresh();
    const f = open(dir) as ExperimentFolder<unknown>;
    f.keep(1, result(1));
    f.keep(2, result(2));
    const record = JSON.parse(readFileSync(join(dir, 'result-seed1.json'), 'utf8')) as { key: string };
    writeFileSync(join(dir, 'result-seed1.json'), JSON.stringify({ ...record, key: '0000000000000000' }));
    writeFileSync(join(dir, 'result-seed2.json'), '{"key":');
    expect(f.finished(1)).toBeUndefined();
    expect(f.finished(2)).toBeUndefined();
  });
});
