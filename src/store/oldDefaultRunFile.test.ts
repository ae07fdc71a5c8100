import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeRunFile } from '../core/runFile';
import { describeRun } from '../core/runName';
import { defaultConfig } from '../rl/config';
import { configFromHash, hashFromConfig } from './urlConfig';

describe('a run file made when long-coupled was the default', () => {
  it('still opens long-coupled at 20 -> 80 minutes, and a link made from it opens the same settings', () => {
    const r = decodeRunFile(new Uint8Array(readFileSync('public/pretrained/long-coupled.swarmrun.json.gz')));
    if (!r.ok) throw new Error(r.error);
    expect(r.run.config).toMatchObject({ family: 'long-coupled', tmaxStart: 20, tmaxEnd: 80, updates: 300 });
    expect(r.run.config.family).not.toBe(defaultConfig().family);
    // It was trained at the default run's budget of then (300 updates of 4 tasks x 8 rollouts), and says so.
    expect(r.run.config).toMatchObject({ tasksPerUpdate: 4, groupSize: 8 });
    expect(r.run.config).not.toMatchObject({ tasksPerUpdate: defaultConfig().tasksPerUpdate, groupSize: defaultConfig().groupSize });
    expect(describeRun(r.run.config)).toMatch(/^long-coupled, 8 agents/);
    expect(configFromHash(hashFromConfig(r.run.config)).config).toEqual(r.run.config);
  });
});
