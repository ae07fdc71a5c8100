import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../rl/config';
import { configFromHash, hashFromConfig } from './urlConfig';

describe('config in the URL hash', () => {
  it('round-trips a config, seed included', () => {
    const c = { ...defaultConfig(), family: 'parallel' as const, agents: 5, seed: 42, tmaxEnd: 30, critic: true };
    const hash = hashFromConfig(c);
    expect(hash).toMatch(/seed=42/);
    const back = configFromHash(hash);
    expect(back.issues).toEqual([]);
    expect(back.config).toEqual(c);
  });

  it('opens a hostile link clamped, with a notice per problem', () => {
    const { config, issues } = configFromHash('#agents=100000&lr=NaN&family=<script>alert(1)</script>&bogus=1&%E0%A4%A=2');
    expect(config.agents).toBe(16);
    expect(config.lr).toBe(defaultConfig().lr);
    expect(config.family).toBe(defaultConfig().family);
    expect(issues.map((i) => i.key)).toEqual(expect.arrayContaining(['agents', 'lr', 'family', 'bogus']));
    expect(issues).toHaveLength(5);
  });

  it('carries a hand-chosen backend beside the config', () => {
    const hash = hashFromConfig(defaultConfig(), 'wasm');
    expect(configFromHash(hash).backend).toBe('wasm');
    expect(configFromHash('#backend=quantum').issues[0].key).toBe('backend');
    expect(configFromHash('#backend=quantum').backend).toBe('auto');
  });

  it('ignores an absurdly long hash', () => {
    const { config, issues } = configFromHash('#' + 'a'.repeat(10000));
    expect(config).toEqual(defaultConfig());
    expect(issues).toHaveLength(1);
  });
});
