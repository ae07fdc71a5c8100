import { describe, expect, it } from 'vitest';
import {
  configFromStrings,
  configToStrings,
  costsAt,
  costsOf,
  defaultConfig,
  entropyAt,
  FORMER_DEFAULTS,
  LINK_V1_DEFAULTS,
  LINK_V2_DEFAULTS,
  LINK_V3_DEFAULTS,
  LINK_VERSION,
  linkDefaults,
  linkFormat,
  lrAt,
  familyChange,
  rebuildsTrainer,
  teamAt,
  SCHEMA,
} from './config';

describe('config schema', () => {
  it('defaults satisfy their own ranges', () => {
    const d = defaultConfig();
    for (const [k, f] of Object.entries(SCHEMA)) {
      const v = d[k as keyof typeof d];
      if (f.kind === 'int' || f.kind === 'float') {
        expect(v).toBeGreaterThanOrEqual(f.min);
        expect(v).toBeLessThanOrEqual(f.max);
      }
    }
  });

  it('round-trips through its text form', () => {
    const c = {
      ...defaultConfig(),
      family: 'search' as const,
      agents: 4,
      lr: 0.01,
      critic: true,
      lambda: 0.95,
      structure: 'ceo' as const,
      budget: 50,
      workerPolicy: 'snapshot' as const,
      shaping: 0.25,
    };
    const { config, issues } = configFromStrings(configToStrings(c), 'strict');
    expect(issues).toEqual([]);
    expect(config).toEqual(c);
  });

  it("trains at a learning rate of 0.005; the short families' rules and an old file without the field keep 0.003", () => {
    expect(defaultConfig().lr).toBe(0.005);
    expect(FORMER_DEFAULTS.lr).toBe(0.003);
  });

  it('trains 450 updates of 2 tasks x 16 rollouts; the former rules and an old file without the fields keep 300 of 4 x 8', () => {
    expect(defaultConfig()).toMatchObject({ updates: 450, tasksPerUpdate: 2, groupSize: 16 });
    expect(FORMER_DEFAULTS).toMatchObject({ updates: 300, tasksPerUpdate: 4, groupSize: 8 });
    // The same rollouts per update as before.
    expect(defaultConfig().tasksPerUpdate * defaultConfig().groupSize).toBe(4 * 8);
  });

  it('reads every link format over the defaults of its time, and no other format', () => {
    expect([linkFormat(undefined), linkFormat(null), linkFormat('2'), linkFormat(String(LINK_VERSION))]).toEqual([1, 1, 2, LINK_VERSION]);
    for (const bad of ['', '1', '02', '2.0', String(LINK_VERSION + 1), 'x']) expect(linkFormat(bad), bad).toBeNull();
    expect(linkDefaults(LINK_VERSION)).toEqual({});
    expect(linkDefaults(3)).toEqual(LINK_V3_DEFAULTS);
    expect(linkDefaults(2)).toEqual({ ...LINK_V3_DEFAULTS, ...LINK_V2_DEFAULTS });
    expect(linkDefaults(1)).toEqual({ ...LINK_V3_DEFAULTS, ...LINK_V2_DEFAULTS, ...LINK_V1_DEFAULTS });
  });

  it('has the costs of talk on by default and of piling on off, read from text, and structural', () => {
    const d = defaultConfig();
    expect(costsOf(d)).toEqual({ interrupt: true, conflict: false, broadcast: true, merge: false });
    expect(costsOf({ ...d, ...FORMER_DEFAULTS })).toEqual({ interrupt: false, conflict: false, broadcast: false, merge: false });
    expect(rebuildsTrainer(d, { ...d, broadcasts: false })).toBe(true);
    expect(rebuildsTrainer(d, { ...d, merges: true })).toBe(true);
    const { config, issues } = configFromStrings({ interruptions: 'false', conflicts: 'on' }, 'strict');
    expect(issues).toEqual([]);
    expect(costsOf(config)).toEqual({ interrupt: false, conflict: true, broadcast: true, merge: false });
    expect(configToStrings(config)).toEqual({ interruptions: 'false', conflicts: 'true' });
    expect(rebuildsTrainer(d, { ...d, interruptions: false })).toBe(true);
    expect(rebuildsTrainer(d, { ...d, conflicts: true })).toBe(true);
    expect(configFromStrings({ conflicts: 'sometimes' }, 'strict').issues.map((i) => i.key)).toEqual(['conflicts']);
  });

  for (const [name, at, start, end] of [
    ['entropy bonus', entropyAt, 'entropy', 'entropyEnd'],
    ['learning rate', lrAt, 'lr', 'lrEnd'],
  ] as const) {
    it(`anneals the ${name} linearly over the RLCR updates to ${end} x ${start}; the prior and ${end} 1 keep ${start}`, () => {
      const d = { ...defaultConfig(), [start]: 0.004, [end]: 1, updates: 101, prior: 10 };
      expect(at(d, 0)).toBe(0.004);
      expect(at(d, 300)).toBe(0.004);
      const a = { ...d, [end]: 0.25 };
      expect(at(a, 5)).toBe(0.004);
      expect(at(a, 10)).toBe(0.004);
      expect(at(a, 60)).toBeCloseTo(0.0025, 12);
      expect(at(a, 110)).toBeCloseTo(0.001, 12);
      expect(at(a, 500)).toBeCloseTo(0.001, 12);
    });
  }

  it('keeps the learning rate constant and anneals the entropy bonus to a quarter by default', () => {
    expect(defaultConfig().lrEnd).toBe(1);
    expect(defaultConfig().entropyEnd).toBe(0.25);
  });

  it('ramps a merge in over mergeRamp RLCR updates, after the prior, and never without the rule', () => {
    const d = { ...defaultConfig(), merges: true, mergeRamp: 100, prior: 20 };
    expect(costsAt(d, 0).mergeCost).toBe(0);
    expect(costsAt(d, 20).mergeCost).toBe(0);
    expect(costsAt(d, 45).mergeCost).toBe(0.25);
    expect(costsAt(d, 120).mergeCost).toBe(1);
    expect(costsAt(d, 500).mergeCost).toBe(1);
    expect(costsAt({ ...d, mergeRamp: 0 }, 45)).toEqual(costsOf(d));
    expect(costsAt({ ...d, merges: false }, 45)).toEqual(costsOf({ ...d, merges: false }));
    expect(rebuildsTrainer(d, { ...d, mergeRamp: 50 })).toBe(false);
  });

  it('books effort only when asked, as a structural setting, and lets it fall from effortStart to effort over the RLCR updates', () => {
    const d = defaultConfig();
    expect(d.effort).toBe(0);
    expect(costsOf(d).effort).toBeUndefined();
    const booked = { ...d, effort: 1.3 };
    expect(costsOf(booked).effort).toBe(1.3);
    expect(costsAt(booked, 123).effort).toBe(1.3);
    expect(rebuildsTrainer(d, booked)).toBe(true);
    const falling = { ...booked, effortStart: 3, updates: 101, prior: 10 };
    expect(costsAt(falling, 5).effort).toBe(3);
    expect(costsAt(falling, 10).effort).toBe(3);
    expect(costsAt(falling, 60).effort).toBeCloseTo(2.15, 10);
    expect(costsAt(falling, 110).effort).toBeCloseTo(1.3, 10);
    expect(costsOf(falling).effort).toBe(1.3); // evaluation: always the run's effort
    expect(rebuildsTrainer(booked, { ...booked, effortStart: 3 })).toBe(false);
    expect(costsAt({ ...d, effortStart: 3 }, 60).effort).toBeUndefined(); // no effort booked: nothing to fall to
  });

  it('starts a merge late with mergeFrom: nothing before it, then the ramp (or the whole minute)', () => {
    const d = { ...defaultConfig(), merges: true, mergeFrom: 150, mergeRamp: 100, prior: 20 };
    expect(costsAt(d, 100).mergeCost).toBe(0);
    expect(costsAt(d, 169).mergeCost).toBe(0);
    expect(costsAt(d, 170).mergeCost).toBe(0);
    expect(costsAt(d, 195).mergeCost).toBe(0.25);
    expect(costsAt(d, 270).mergeCost).toBe(1);
    const whole = { ...d, mergeRamp: 0 };
    expect(costsAt(whole, 169).mergeCost).toBe(0);
    expect(costsAt(whole, 170)).toEqual(costsOf(whole));
    expect(rebuildsTrainer(d, { ...d, mergeFrom: 50 })).toBe(false);
  });

  it('grows the training team with teamStart: one agent more every teamRamp / (agents - teamStart) RLCR updates, the whole team from teamRamp', () => {
    const d = defaultConfig();
    expect(d.teamStart).toBe(0);
    expect(teamAt(d, 0)).toBe(8);
    const grows = { ...d, teamStart: 3, teamRamp: 150 };
    expect([0, 29, 30, 59, 60, 120, 149, 150, 299].map((u) => teamAt(grows, u))).toEqual([3, 3, 4, 4, 5, 7, 7, 8, 8]);
    // The prior's updates play the whole team; the schedule counts RLCR updates.
    const prior = { ...grows, prior: 20 };
    expect([0, 19, 20, 49, 50, 170].map((u) => teamAt(prior, u))).toEqual([8, 8, 3, 3, 4, 8]);
    expect(teamAt({ ...grows, teamStart: 8 }, 0)).toBe(8);
    expect(teamAt({ ...grows, teamStart: 12 }, 0)).toBe(8);
    expect(teamAt({ ...grows, structure: 'ceo' }, 0)).toBe(8);
    expect(rebuildsTrainer(d, grows)).toBe(false);
    expect(configFromStrings({ teamStart: '17' }, 'strict').issues.map((i) => i.key)).toEqual(['teamStart']);
    expect(configFromStrings({ teamRamp: '0' }, 'strict').issues.map((i) => i.key)).toEqual(['teamRamp']);
  });

  it('rejects an unknown structure and out-of-range preset settings', () => {
    const { issues } = configFromStrings({ structure: 'anarchy', budget: '0', islands: '17', workerPolicy: 'oracle' }, 'strict');
    expect(issues.map((i) => i.key).sort()).toEqual(['budget', 'islands', 'structure', 'workerPolicy']);
    expect(defaultConfig().structure).toBe('flat');
  });

  it('rejects unknown keys, bad numbers and out-of-range values in strict mode', () => {
    const { issues } = configFromStrings({ agents: '99', lr: 'fast', famly: 'coupled', family: 'chaos', epochs: '1.5' }, 'strict');
    expect(issues.map((i) => i.key).sort()).toEqual(['agents', 'epochs', 'family', 'famly', 'lr']);
    expect(issues.find((i) => i.key === 'agents')?.message).toMatch(/out of range: an integer from 1 to 16/);
  });

  it('clamps or drops bad values in clamp mode and keeps a usable config', () => {
    const { config, issues } = configFromStrings({ agents: '1000000000', lr: 'NaN', gamma: '-3' }, 'clamp');
    expect(config.agents).toBe(16);
    expect(config.lr).toBe(defaultConfig().lr);
    expect(config.gamma).toBe(0);
    expect(issues).toHaveLength(3);
  });

  it('reads no exponent, hex or fraction for an integer: the value is refused, not rounded', () => {
    const { config, issues } = configFromStrings({ agents: '1e1', seed: '1.5', updates: '0x10' }, 'clamp');
    expect([config.agents, config.seed, config.updates]).toEqual([defaultConfig().agents, defaultConfig().seed, defaultConfig().updates]);
    expect(issues).toHaveLength(3);
    expect(configFromStrings({ updates: '1e12' }, 'strict').issues[0].message).toBe('"1e12" is not an integer from 1 to 1000000');
  });
});

describe('familyChange', () => {
  it("brings the new family its calibrated schedule while the run has the old family's", () => {
    expect(familyChange(defaultConfig(), 'coupled')).toEqual({ family: 'coupled', tmaxStart: 8, tmaxEnd: 24 });
    expect(familyChange({ family: 'coupled', tmaxStart: 8, tmaxEnd: 24 }, 'long-parallel')).toEqual({ family: 'long-parallel', tmaxStart: 20, tmaxEnd: 80 });
    expect(familyChange({ family: 'long-coupled', tmaxStart: 20, tmaxEnd: 80 }, 'long-search')).toEqual({ family: 'long-search', tmaxStart: 20, tmaxEnd: 80 });
  });
  it('keeps a schedule the user chose', () => {
    expect(familyChange({ family: 'long-coupled', tmaxStart: 30, tmaxEnd: 80 }, 'coupled')).toEqual({ family: 'coupled' });
  });
});
