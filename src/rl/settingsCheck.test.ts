import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from './config';
import { checkSettings, decisionsPerUpdate, estimateUpdateBytes, MEMORY_LIMIT_BYTES } from './settingsCheck';

const flag = (k: string) => `--${k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`;
const largest: Config = { ...defaultConfig(), agents: 16, tasksPerUpdate: 64, groupSize: 64, hidden: 512, scorer: 256, tmaxStart: 200, tmaxEnd: 200 };

describe('checkSettings', () => {
  it('passes the defaults without a word', () => {
    expect(checkSettings(defaultConfig())).toEqual({ errors: [], warnings: [] });
  });

  it('refuses the largest in-range settings (which crashed at 4.4 GB) and says which settings to lower', () => {
    const r = checkSettings(largest, flag);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toContain('lower --tasks-per-update (64) or --group-size (64)');
    expect(r.errors[0]).toContain('13,107,200 decisions');
    expect(decisionsPerUpdate(largest)).toBe(64 * 64 * 16 * 200);
  });

  it('names the widths when the rollouts are already few', () => {
    const r = checkSettings({ ...largest, tasksPerUpdate: 2, groupSize: 4 });
    expect(estimateUpdateBytes({ ...largest, tasksPerUpdate: 2, groupSize: 4 })).toBeGreaterThan(MEMORY_LIMIT_BYTES);
    expect(r.errors[0]).toContain('lower hidden (512) and scorer (256)');
  });

  it('matches the measured peaks within a third (one update, wasm, Node)', () => {
    // Measured (scripts/commands/checks/update-memory.ts): 16 agents, 8 rollouts, 200 minutes, 64/32: 1.80 GiB; 2 rollouts, 100 minutes, 512/256: 1.29 GiB.
    const a = estimateUpdateBytes({ agents: 16, tasksPerUpdate: 2, groupSize: 4, tmaxStart: 200, tmaxEnd: 200, hidden: 64, scorer: 32 });
    const b = estimateUpdateBytes({ agents: 16, tasksPerUpdate: 1, groupSize: 2, tmaxStart: 100, tmaxEnd: 100, hidden: 512, scorer: 256 });
    expect(a / (1.8 * 2 ** 30)).toBeGreaterThan(0.75);
    expect(a / (1.8 * 2 ** 30)).toBeLessThan(1.33);
    expect(b / (1.29 * 2 ** 30)).toBeGreaterThan(0.75);
    expect(b / (1.29 * 2 ** 30)).toBeLessThan(1.33);
  });

  it('explains a shrinking deadline, an entropy bonus of 0 and a warm-up that lasts the whole run', () => {
    const r = checkSettings({ ...defaultConfig(), tmaxStart: 200, tmaxEnd: 1, entropy: 0, tmaxWarmup: 400, updates: 300 }, flag);
    expect(r.errors).toEqual([]);
    expect(r.warnings.join('\n')).toContain('shrinks from 200 to 1 minutes');
    expect(r.warnings.join('\n')).toContain('entropy bonus (--entropy) is 0');
    expect(r.warnings.join('\n')).toContain('warm-up (400 updates) lasts the whole run');
  });

  it('says when a team schedule cannot grow the team', () => {
    const d = defaultConfig();
    expect(checkSettings({ ...d, teamStart: 3 }, flag).warnings).toEqual([]);
    expect(checkSettings({ ...d, teamStart: 3, structure: 'ceo' }, flag).warnings.join('\n')).toContain(
      'only in the flat structure; under ceo the whole team plays',
    );
    expect(checkSettings({ ...d, teamStart: 8 }, flag).warnings.join('\n')).toContain('(8) is already the whole team of 8');
    expect(checkSettings({ ...d, teamStart: 3, teamRamp: d.updates + 50 }, flag).warnings.join('\n')).toContain(
      `--team-ramp (${d.updates + 50}) is after the last update`,
    );
  });
});
