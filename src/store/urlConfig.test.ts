import { describe, expect, it } from 'vitest';
import { LESSON_IDS, LESSON_V1_IDS, LESSON_V2_IDS } from '../core/lesson';
import { defaultConfig, LINK_V1_DEFAULTS, LINK_V2_DEFAULTS, LINK_V3_DEFAULTS } from '../rl/config';
import { configFromHash, hashFromConfig, LINK_VERSION } from './urlConfig';

/** The config an old link (no `v`) is read over. */
const v1 = () => ({ ...defaultConfig(), ...LINK_V3_DEFAULTS, ...LINK_V2_DEFAULTS, ...LINK_V1_DEFAULTS });

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
    const { config, issues } = configFromHash(`#v=${LINK_VERSION}&agents=100000&lr=NaN&family=<script>alert(1)</script>&bogus=1&%E0%A4%A=2`);
    expect(config.agents).toBe(16);
    expect(config.lr).toBe(defaultConfig().lr);
    expect(config.family).toBe(defaultConfig().family);
    expect(issues.map((i) => i.key)).toEqual(expect.arrayContaining(['agents', 'lr', 'family', 'bogus']));
    expect(issues).toHaveLength(5);
  });

  it('writes its link format, and reads a link without one over the defaults it was written under', () => {
    expect(hashFromConfig(defaultConfig())).toBe(`#v=${LINK_VERSION}&seed=${defaultConfig().seed}`);
    expect(configFromHash(hashFromConfig(defaultConfig())).config).toEqual(defaultConfig());
    // An old link to the default run still opens long-coupled at 20 -> 80 minutes.
    const old = configFromHash('#seed=1');
    expect(old.issues).toEqual([]);
    expect(old.config).toMatchObject({ family: 'long-coupled', tmaxStart: 20, tmaxEnd: 80, updates: 300 });
    expect(old.config.family).not.toBe(defaultConfig().family);
    // An old link that named long-planned meant its schedule of then, 20 -> 80.
    expect(configFromHash('#family=long-planned&seed=3').config).toMatchObject({ family: 'long-planned', tmaxEnd: 80, seed: 3 });
    // A new one means today's, 20 -> 72.
    expect(configFromHash(`#v=${LINK_VERSION}&seed=3`).config).toMatchObject({ family: 'long-planned', tmaxEnd: 72, seed: 3 });
    // The lesson had seven steps: an old link's step 4 (the schedule) is step 5 now, and every old step keeps its name.
    expect(configFromHash('#lesson=4').view.lesson).toBe(LESSON_IDS.indexOf('schedule') + 1);
    LESSON_V1_IDS.forEach((id, i) => expect(LESSON_IDS[(configFromHash(`#lesson=${i + 1}`).view.lesson ?? 0) - 1]).toBe(id));
    expect(configFromHash(`#v=${LINK_VERSION}&lesson=4`).view.lesson).toBe(4);
    // Format 2 had eight steps (before the unofficial board's): its step 7 (the race) is step 8 now, every step keeps its name.
    expect(configFromHash('#v=2&lesson=7').view.lesson).toBe(LESSON_IDS.indexOf('race') + 1);
    LESSON_V2_IDS.forEach((id, i) => expect(LESSON_IDS[(configFromHash(`#v=2&lesson=${i + 1}`).view.lesson ?? 0) - 1]).toBe(id));
    expect(configFromHash(`#v=${LINK_VERSION}&lesson=7`).view.lesson).toBe(LESSON_IDS.indexOf('side-board') + 1);
    // An old link round-trips to a new one that opens the same run.
    expect(configFromHash(hashFromConfig(old.config)).config).toEqual(old.config);
  });

  it('reads a v=2 link, written before the channel policies, as open channels, so a CEO or orchestrator run keeps talking as it did', () => {
    for (const structure of ['ceo', 'orchestrator', 'flat'] as const) {
      const r = configFromHash(`#v=2&structure=${structure}&seed=4`);
      expect(r.issues).toEqual([]);
      expect(r.config).toEqual({ ...defaultConfig(), ...LINK_V3_DEFAULTS, ...LINK_V2_DEFAULTS, structure, seed: 4 });
      expect(r.config.channels).toBe('open');
      // Written again it is a link of today's format that names the channels, and opens the same run.
      const again = hashFromConfig(r.config);
      expect(again).toMatch(new RegExp(`^#v=${LINK_VERSION}&`));
      expect(again).toContain('channels=open');
      expect(configFromHash(again).config).toEqual(r.config);
    }
    // A v=2 link that names its channels (it could not, but a hand-made one may) keeps them; the rest of the format is as before.
    expect(configFromHash('#v=2&channels=hub&sideBoard=monitored').config).toMatchObject({ channels: 'hub', sideBoard: 'monitored' });
    expect(configFromHash('#v=2&seed=3').config).toMatchObject({ family: 'long-planned', tmaxEnd: 72 });
    // A link without a format was written before the channels too.
    expect(configFromHash('#structure=ceo').config).toMatchObject({ structure: 'ceo', channels: 'open', family: 'long-coupled' });
    // A v=3 link without channels means today's default: the structure's own policy.
    expect(configFromHash('#v=3&structure=ceo').config.channels).toBe('preset');
    // The channels and the unofficial board round-trip.
    const c = { ...defaultConfig(), channels: 'command' as const, sideBoard: 'monitored' as const, catchRate: 0.25, catchCost: 0.1 };
    expect(configFromHash(hashFromConfig(c)).config).toEqual(c);
  });

  it('reads a v=3 link, written when the default run was 300 updates of 4 tasks x 8 rollouts, as that run', () => {
    expect(LINK_VERSION).toBe(4);
    const r = configFromHash('#v=3&seed=1');
    expect(r.issues).toEqual([]);
    expect(r.config).toEqual({ ...defaultConfig(), updates: 300, tasksPerUpdate: 4, groupSize: 8, seed: 1 });
    expect(r.config).not.toEqual(defaultConfig());
    // Written again it names the budget it means, and opens the same run.
    const again = hashFromConfig(r.config);
    expect(again).toMatch(/^#v=4&/);
    expect(again).toContain('updates=300');
    expect(configFromHash(again).config).toEqual(r.config);
    // What a v=3 link names it keeps; its lesson steps are today's.
    expect(configFromHash('#v=3&updates=900&groupSize=4').config).toMatchObject({ updates: 900, groupSize: 4, tasksPerUpdate: 4 });
    expect(configFromHash('#v=3&lesson=7').view.lesson).toBe(LESSON_IDS.indexOf('side-board') + 1);
    // Today's link to the default run opens today's budget.
    expect(configFromHash(`#v=${LINK_VERSION}&seed=1`).config).toMatchObject({ updates: 450, tasksPerUpdate: 2, groupSize: 16 });
  });

  it("reads an unknown link format as today's, with a notice", () => {
    const r = configFromHash('#v=9&agents=3');
    expect(r.config).toEqual({ ...defaultConfig(), agents: 3 });
    expect(r.issues.map((i) => i.key)).toEqual(['v']);
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

  it('refuses a fraction, hex or exponent for an integer setting, with a notice that names the kept value', () => {
    const d = defaultConfig();
    const { config, issues } = configFromHash(`#v=${LINK_VERSION}&agents=2.5&seed=1.5&islands=0x2&tasksPerUpdate=1e1`);
    expect(config.agents).toBe(d.agents);
    expect(config.seed).toBe(d.seed);
    expect(config.islands).toBe(d.islands);
    expect(config.tasksPerUpdate).toBe(d.tasksPerUpdate);
    expect(issues.map((i) => i.message)).toEqual([
      `"2.5" is not an integer from 1 to 16; kept ${d.agents}`,
      `"1.5" is not an integer from 0 to 2147483647; kept ${d.seed}`,
      `"0x2" is not an integer from 1 to 16; kept ${d.islands}`,
      `"1e1" is not an integer from 1 to 64; kept ${d.tasksPerUpdate}`,
    ]);
    expect(configFromHash('#agents=0x10').issues[0].message).toContain('"0x10" is not an integer');
  });

  it('treats Object.prototype names as unknown settings and changes nothing through them', () => {
    const { config, issues } = configFromHash('#__proto__=1&constructor=2&toString=3&hasOwnProperty=4&backend=auto');
    expect(config).toEqual(v1());
    expect(issues.map((i) => i.message)).toEqual([
      'unknown setting "__proto__"',
      'unknown setting "constructor"',
      'unknown setting "toString"',
      'unknown setting "hasOwnProperty"',
    ]);
    expect(Object.getPrototypeOf(config)).toBe(Object.prototype);
  });
});

describe('view settings in the URL hash', () => {
  it('opens presenter, embed, hidden parts, the curve view and a lesson step from a link', () => {
    const { view, issues, config } = configFromHash('#family=coupled&presenter&embed=1&hide=controls,library&curve=relative&lesson=3');
    expect(issues).toEqual([]);
    expect(config.family).toBe('coupled');
    expect(view).toEqual({ presenter: true, embed: true, hide: ['controls', 'library'], curve: 'relative', lesson: 3 });
  });

  it('round-trips a view beside the config', () => {
    const view = { presenter: true, embed: false, hide: ['board' as const], curve: 'relative' as const, lesson: 5 };
    const back = configFromHash(hashFromConfig(defaultConfig(), 'auto', view));
    expect(back.issues).toEqual([]);
    expect(back.view).toEqual(view);
  });

  it('drops unknown parts and bad steps with a notice each, keeping the rest', () => {
    const { view, issues } = configFromHash('#hide=controls,<b>x</b>&lesson=zero&presenter=maybe');
    expect(view.hide).toEqual(['controls']);
    expect(view.lesson).toBeNull();
    expect(view.presenter).toBe(false);
    expect(issues.map((i) => i.key).sort()).toEqual(['hide', 'lesson', 'presenter']);
  });
});

describe('reading the hash', () => {
  it('reports a broken escape in a key or a value and ignores that setting only', () => {
    const { config, issues } = configFromHash('#agents=%E0%A4%A&%E0=1&tmaxEnd=30');
    expect(config.agents).toBe(defaultConfig().agents);
    expect(config.tmaxEnd).toBe(30);
    expect(issues.map((i) => i.message)).toEqual(['is not valid URL encoding and was ignored', 'is not valid URL encoding and was ignored']);
    expect(issues[0].key).toBe('agents');
  });

  it('decodes escapes, keeps a plus a plus, reads a bare key as empty and the last of a repeated key', () => {
    expect(configFromHash('#tmaxEnd=3%30').config.tmaxEnd).toBe(30);
    expect(configFromHash('#lr=1e%2B0').config.lr).toBe(configFromHash('#lr=1e+0').config.lr);
    expect(configFromHash('#presenter').view.presenter).toBe(true);
    expect(configFromHash('#agents=4&agents=5&&').config.agents).toBe(5);
    expect(configFromHash('').issues).toEqual([]);
  });
});
