import * as tf from '@tensorflow/tfjs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodeTicks } from '../../src/core/recorder';
import { decodeRunFile, encodeRunFile } from '../../src/core/runFile';
import { fakeRun } from '../../src/core/testing';
import { defaultConfig, type Config } from '../../src/rl/config';
import { Trainer } from '../../src/rl/trainer';
import { TrainingRecording, runFileCheckpoint } from './runfile';

const dir = mkdtempSync(join(tmpdir(), 'swarm-runfile-'));
const tiny: Config = { ...defaultConfig(), agents: 2, tasksPerUpdate: 1, groupSize: 2, updates: 3, tmaxStart: 5, tmaxEnd: 7, hidden: 16, scorer: 8 };

beforeAll(async () => {
  await tf.setBackend('cpu');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('TrainingRecording', () => {
  it('writes a run file of the whole training whose last checkpoint is the final policy', async () => {
    const trainer = new Trainer(tiny);
    const recording = new TrainingRecording(tiny, { name: 'cli test', checkpointEvery: 2 });
    while (!trainer.finished) await recording.record(trainer, await trainer.step());
    const path = join(dir, 'run.swarmrun.json.gz');
    recording.write(path, trainer);
    const r = decodeRunFile(readFileSync(path));
    if (!r.ok) throw new Error(r.error);
    expect(r.run.name).toBe('cli test');
    expect(r.run.metrics.map((m) => [m.update, m.tmax])).toEqual([
      [0, 5],
      [1, 6],
      [2, 7],
    ]);
    expect(r.run.episodes.items.map((e) => e.update)).toEqual([0, 1, 2]);
    const e = r.run.episodes.items[2];
    expect(e.modules.length).toBeGreaterThan(0);
    expect(e.references.scripted).toBeGreaterThan(0);
    expect(episodeTicks(e)).toBeLessThanOrEqual(7);
    expect(r.run.checkpoints.items.map((c) => c.updates)).toEqual([2, 3]);
    const cp = runFileCheckpoint(path);
    expect(cp.updates).toBe(3);
    expect(cp.weights.weights.g1.data.map(Math.fround)).toEqual(trainer.policy.toJSON().weights.g1.data);
    trainer.dispose();
  }, 60_000);

  it('says why a run file cannot give starting weights', () => {
    expect(() => runFileCheckpoint(join(dir, 'missing.gz'))).toThrow(/^cannot read /);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"format":"swarm-run","version":3}');
    expect(() => runFileCheckpoint(bad)).toThrow(/Unsupported run file version 3/);
    const empty = join(dir, 'empty.swarmrun.json.gz');
    const run = fakeRun(2);
    writeFileSync(empty, encodeRunFile({ ...run, checkpoints: { ...run.checkpoints, items: [] } }));
    expect(() => runFileCheckpoint(empty)).toThrow(/holds no policy checkpoint/);
  });
});
