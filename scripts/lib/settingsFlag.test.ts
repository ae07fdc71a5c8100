import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/rl/config';
import { UsageError } from './cli';
import { settingsFlag } from './settingsFlag';

describe('settingsFlag', () => {
  it('sets what the text names on top of the base and leaves the rest', () => {
    const base = { ...defaultConfig(), seed: 7 };
    const c = settingsFlag('lr=0.006&updates=150&interruptions=false', base);
    expect(c.lr).toBe(0.006);
    expect(c.updates).toBe(150);
    expect(c.interruptions).toBe(false);
    expect(c.seed).toBe(7);
    expect({ ...c, lr: base.lr, updates: base.updates, interruptions: base.interruptions }).toEqual(base);
  });

  it('refuses an unknown setting, a value out of range and settings that cannot train together, naming each', () => {
    expect(() => settingsFlag('lrr=0.1', defaultConfig())).toThrow(UsageError);
    expect(() => settingsFlag('lrr=0.1', defaultConfig())).toThrow(/--set: lrr: unknown setting/);
    expect(() => settingsFlag('lr=5', defaultConfig())).toThrow(/--set: lr: /);
    expect(() => settingsFlag('agents=16&tasksPerUpdate=64&groupSize=64&tmaxEnd=200', defaultConfig())).toThrow(/--set: These settings need about .* memory/);
  });
});
