import { describe, expect, it } from 'vitest';
import { defaultConfig, LINK_VERSION } from '../../../src/rl/config';
import { parseOptions, withSeed } from './options';
import { currentFormat, hashConfig } from './page';

describe('bench:ui options', () => {
  it("opens today's link format by default, so --lesson's step numbers are the ones this build shows", () => {
    const o = parseOptions(['--lesson', '7']);
    if (o === 'help') throw new Error('help');
    expect(new URLSearchParams(o.hash).get('v')).toBe(String(LINK_VERSION));
    // The lesson's page is opened with the hash as given (a link with a version keeps it).
    expect(new URLSearchParams(currentFormat(o.hash)).get('v')).toBe(String(LINK_VERSION));
    expect(o.lesson).toEqual([7]);
  });

  it('keeps a hash the user gives, version and all', () => {
    const o = parseOptions(['--hash', 'v=2&seed=4']);
    if (o === 'help') throw new Error('help');
    expect(o.hash).toBe('v=2&seed=4');
  });

  it('reads the settings of a link as the page does, older link formats over the defaults of their time', () => {
    const today = defaultConfig();
    expect(hashConfig('')).toEqual(today);
    expect(hashConfig(`v=${LINK_VERSION}&seed=3`)).toEqual({ ...today, seed: 3 });
    // A format this build cannot read is read as today's (the page says so).
    expect(hashConfig('v=99&seed=3')).toEqual({ ...today, seed: 3 });
    // Format 2 was written before the channel policies (everyone talked openly), a link without one also on long-coupled at 20 -> 80.
    expect(hashConfig('v=2&structure=ceo')).toMatchObject({ structure: 'ceo', channels: 'open', family: today.family, updates: 300 });
    expect(hashConfig('agents=4')).toMatchObject({ agents: 4, channels: 'open', family: 'long-coupled', tmaxEnd: 80, updates: 300 });
    // A v=3 link was written when the default run was 300 updates of 4 x 8, with today's channel policies.
    expect(hashConfig('v=3&seed=2')).toMatchObject({ updates: 300, tasksPerUpdate: 4, groupSize: 8, channels: 'preset', seed: 2 });
  });

  it('--learn --seeds runs the hash once per seed, the rest of the link as given', () => {
    const o = parseOptions(['--learn', '--seeds', '3,1', '--hash', 'v=3&seed=9&agents=6']);
    if (o === 'help') throw new Error('help');
    expect(o.seeds).toEqual([3, 1]);
    expect(hashConfig(withSeed(o.hash, 3))).toEqual({ ...hashConfig('v=3&agents=6'), seed: 3 });
    expect(new URLSearchParams(withSeed(o.hash, 1)).getAll('seed')).toEqual(['1']);
    const single = parseOptions(['--learn']);
    if (single === 'help') throw new Error('help');
    expect(single.seeds).toBeNull();
  });
});
