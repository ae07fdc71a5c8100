import { gunzipSync, gzipSync, strFromU8, strToU8 } from 'fflate';
import { SCHEMA } from '../rl/config';
import { FAMILIES } from '../sim/task';
import { describe, expect, it } from 'vitest';
import {
  MAX_COMPRESSED_BYTES,
  MAX_NAME_LENGTH,
  RUN_FILE_EXTENSION,
  cleanRunName,
  decodeRunFile,
  encodeRunFile,
  float32Shortest,
  isGzip,
  suggestedFileName,
  summariseConfig,
  validateRun,
  type DecodeResult,
} from './runFile';
import type { RunFile } from './runFormat';
import { runName } from './runName';
import { fakeRun, testConfig } from './testing';

const json = (v: unknown) => strToU8(JSON.stringify(v));
/** The run as plain JSON data, for corrupting one field. */
const plain = (): Record<string, any> => JSON.parse(JSON.stringify(fakeRun(6)));

function rejected(r: DecodeResult): { error: string; code: string } {
  if (r.ok) throw new Error('expected the file to be rejected');
  return r;
}

describe('run file encode/decode', () => {
  it('round-trips a recorded run through gzip', () => {
    const run = fakeRun(12);
    const bytes = encodeRunFile(run);
    expect(isGzip(bytes)).toBe(true);
    const back = decodeRunFile(bytes);
    expect(back).toEqual({ ok: true, run });
    expect(back.ok && back.run.checkpoints.items.at(-1)?.updates).toBe(12);
    expect(back.ok && back.run.episodes.items.length).toBe(12);
  });

  it('keeps the costs metrics of a newer run and opens a run without them (they are optional)', () => {
    const run = fakeRun(3);
    const newer = { ...run, metrics: run.metrics.map((m) => ({ ...m, wastedMessages: 2.5, interrupted: 1, conflicts: 0.5 })) };
    expect(decodeRunFile(encodeRunFile(newer))).toEqual({ ok: true, run: newer });
    expect(run.metrics[0]).not.toHaveProperty('interrupted');
    expect(decodeRunFile(encodeRunFile(run))).toEqual({ ok: true, run });
    const bad = JSON.parse(JSON.stringify(newer));
    bad.metrics[1].interrupted = 'many';
    expect(rejected(validateRun(bad)).error).toMatch(/interrupted/);
  });

  it('is deterministic: the same run gives the same bytes', () => {
    expect(encodeRunFile(fakeRun(5))).toEqual(encodeRunFile(fakeRun(5)));
  });

  it('reads uncompressed JSON too', () => {
    const run = fakeRun(4);
    expect(decodeRunFile(json(run))).toEqual({ ok: true, run });
  });

  it("reads a name that would show as nothing as the run's default name, and trims one with spaces around it", () => {
    const run = fakeRun(2);
    for (const blank of ['   ', '\u200b', ' \t\u2060 ']) {
      const r = decodeRunFile(json({ ...run, name: blank }));
      expect(r.ok && r.run.name).toBe(runName(run.config, new Date(run.created)));
    }
    const spaced = decodeRunFile(json({ ...run, name: '  lecture demo  ' }));
    expect(spaced.ok && spaced.run.name).toBe('lecture demo');
  });

  it('writes NaN (a diverged loss) as null and reads it back as NaN', () => {
    const run = fakeRun(3);
    run.metrics[1] = { ...run.metrics[1], loss: NaN, gradNorm: Infinity };
    const bytes = encodeRunFile(run);
    const r = decodeRunFile(bytes);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.run.metrics[1].loss).toBeNaN();
      expect(r.run.metrics[1].gradNorm).toBeNaN();
      expect(r.run.metrics[2]).toEqual(run.metrics[2]);
    }
  });

  it('saves a diverged policy: NaN weights read back as NaN', () => {
    const run = fakeRun(2);
    const w = run.checkpoints.items[0].weights;
    const broken = {
      ...run,
      checkpoints: { ...run.checkpoints, items: [{ updates: 2, weights: { ...w, weights: { ...w.weights, b1: { shape: [2], data: [NaN, 1] } } } }] },
    };
    const r = decodeRunFile(encodeRunFile(broken));
    expect(r.ok && r.run.checkpoints.items[0].weights.weights.b1.data).toEqual([NaN, 1]);
  });

  it('keeps hostile names as plain data', () => {
    const run = { ...fakeRun(2), name: '<img src=x onerror=alert(1)> "run" & </script>' };
    const r = decodeRunFile(encodeRunFile(run));
    expect(r.ok && r.run.name).toBe(run.name);
  });

  it('refuses to encode an invalid run', () => {
    expect(() => encodeRunFile({ ...fakeRun(2), name: '' })).toThrow(/name: must have at least 1 character/);
  });
});

describe('run file rejections', () => {
  it('an empty file', () => {
    expect(rejected(decodeRunFile(new Uint8Array()))).toEqual({ code: 'empty', error: 'The file is empty.', ok: false });
  });

  it('a truncated compressed file', () => {
    const bytes = encodeRunFile(fakeRun(6));
    const r = rejected(decodeRunFile(bytes.subarray(0, Math.floor(bytes.length / 2))));
    expect(r.code).toBe('corrupt');
    expect(r.error).toMatch(/^The file is truncated or corrupt: its compressed data cannot be unpacked/);
  });

  it('a corrupt compression stream', () => {
    const bytes = encodeRunFile(fakeRun(6)).slice();
    bytes.fill(0xff, 10, 40);
    const r = rejected(decodeRunFile(bytes));
    expect(r.code).toBe('corrupt');
  });

  it('truncated JSON', () => {
    const text = JSON.stringify(fakeRun(3));
    const r = rejected(decodeRunFile(strToU8(text.slice(0, text.length - 20))));
    expect(r.code).toBe('corrupt');
    expect(r.error).toMatch(/^The file is truncated or corrupt: it is not valid JSON/);
    expect(rejected(decodeRunFile(gzipSync(strToU8(text.slice(0, 100))))).error).toMatch(/not valid JSON/);
  });

  it('another format version, naming both versions', () => {
    const r = rejected(decodeRunFile(json({ ...plain(), version: 3 })));
    expect(r).toMatchObject({
      code: 'version',
      error: 'Unsupported run file version 3 (written by a newer version of the app): this build reads versions 1 and 2.',
    });
    expect(rejected(decodeRunFile(json({ ...plain(), version: 0 }))).error).toBe('Unsupported run file version 0: this build reads versions 1 and 2.');
    expect(rejected(decodeRunFile(json({ ...plain(), version: undefined }))).error).toBe(
      'Unsupported run file version null: this build reads versions 1 and 2.',
    );
  });

  it("writes a structure's numbers under each metrics row's structure, and reads a version-1 file's flat ones there", () => {
    const run = fakeRun(3);
    run.metrics[1] = { ...run.metrics[1], structure: { headCount: 1.5, budgetSpent: 7 } };
    const written = JSON.parse(strFromU8(gunzipSync(encodeRunFile(run))));
    expect(written.version).toBe(2);
    expect(written.metrics[1].structure).toEqual({ headCount: 1.5, budgetSpent: 7 });
    expect(decodeRunFile(encodeRunFile(run))).toEqual({ ok: true, run });
    // Version 1: the same numbers flat beside the others; a row without them has none.
    const v1 = plain();
    v1.version = 1;
    Object.assign(v1.metrics[1], { headCount: 1.5, budgetSpent: 7 });
    const read = decodeRunFile(json(v1));
    if (!read.ok) throw new Error(read.error);
    expect(read.run.version).toBe(2);
    expect(read.run.metrics[1]).toEqual({ ...read.run.metrics[0], ...run.metrics[1], structure: { headCount: 1.5, budgetSpent: 7 } });
    expect(read.run.metrics[1]).not.toHaveProperty('headCount');
    expect(read.run.metrics[0]).not.toHaveProperty('structure');
    // Version 2 keeps them under `structure` only.
    const flat2 = plain();
    flat2.metrics[1].headCount = 1.5;
    expect(rejected(decodeRunFile(json(flat2))).error).toMatch(/metrics\[1\]: unknown field\(s\) "headCount"/);
    const bad1 = plain();
    bad1.version = 1;
    bad1.metrics[2].islandBest = 'x';
    expect(rejected(decodeRunFile(json(bad1))).error).toMatch(/metrics\[2\]\.structure\.islandBest: expected a number, got the string "x"/);
  });

  it('a wrong or missing format id', () => {
    expect(rejected(decodeRunFile(json({ ...plain(), format: 'swarm-policy' })))).toMatchObject({
      code: 'format',
      error: 'Not a Swarm Playground run file: its format is "swarm-policy", expected "swarm-run".',
    });
    expect(rejected(decodeRunFile(json({ hello: 1 }))).error).toBe('Not a Swarm Playground run file: it has no "format" field, expected "swarm-run".');
    expect(rejected(decodeRunFile(json([1, 2]))).error).toBe('Not a run file: expected a JSON object, got a list.');
  });

  it('wrong types, naming the path and the problem', () => {
    const p = plain();
    p.metrics[3].tmax = 'x';
    p.episodes.items[1].events[0].kind = 'dance';
    p.created = 'yesterday';
    const r = rejected(decodeRunFile(json(p)));
    expect(r.code).toBe('invalid');
    const lines = r.error.split('\n');
    expect(lines[0]).toBe('Invalid run file:');
    expect(lines).toContain('metrics[3].tmax: expected a number, got the string "x"');
    expect(lines).toContain('created: expected an ISO 8601 date-time such as 2024-05-01T12:00:00.000Z, got the string "yesterday"');
    expect(lines.some((l) => l.startsWith('episodes.items[1].events[0].kind: expected "work" or "collide"'))).toBe(true);
  });

  it('missing fields and unknown fields', () => {
    const p = plain();
    delete p.metrics[0].ret;
    p.extra = true;
    const lines = rejected(decodeRunFile(json(p))).error.split('\n');
    expect(lines).toContain('metrics[0].ret: expected a number, got nothing (missing)');
    expect(lines).toContain('(file): unknown field(s) "extra"');
  });

  it('config values checked with the config schema ranges', () => {
    const p = plain();
    p.config.agents = 40;
    p.config.family = 'chaos';
    p.config.lr = '0.1';
    p.config.turbo = 1;
    const lines = rejected(decodeRunFile(json(p))).error.split('\n');
    expect(lines).toContain('config.agents: 40 is out of range: an integer from 1 to 16');
    expect(lines).toContain(`config.family: "chaos" is not one of ${FAMILIES.join(', ')}`);
    expect(lines).toContain('config.lr: expected a number, got the string "0.1"');
    expect(lines).toContain('config.turbo: unknown setting "turbo"');
  });

  it('reads a setting the file predates as its default', () => {
    const p = plain();
    delete p.config.structure;
    delete p.config.budget;
    const r = decodeRunFile(json(p));
    if (!r.ok) throw new Error(r.error);
    expect(r.run.config.structure).toBe('flat');
    expect(r.run.config.budget).toBe(SCHEMA.budget.default);
  });

  it('reads a setting whose default changed since the file was written as what the file was trained with', () => {
    const p = plain();
    delete p.config.interruptions;
    delete p.config.broadcasts;
    delete p.config.entropyEnd;
    const r = decodeRunFile(json(p));
    if (!r.ok) throw new Error(r.error);
    expect([r.run.config.interruptions, r.run.config.broadcasts, r.run.config.entropyEnd]).toEqual([false, false, 1]);
    expect([SCHEMA.interruptions.default, SCHEMA.broadcasts.default, SCHEMA.entropyEnd.default]).toEqual([true, true, 0.25]);
    // A file that names them keeps its own values.
    const q = plain();
    q.config.interruptions = true;
    const s = decodeRunFile(json(q));
    if (!s.ok) throw new Error(s.error);
    expect(s.run.config.interruptions).toBe(true);
  });

  it('inconsistent fields', () => {
    const p = plain();
    p.seed = 9;
    p.metrics[2].update = 7;
    p.episodes.items[2].update = 0;
    p.schedule = { steps: p.schedule.steps, warmup: p.schedule.warmup, shape: p.schedule.shape, start: p.schedule.start, end: 99 };
    const lines = rejected(decodeRunFile(json(p))).error.split('\n');
    expect(lines).toContain('seed: 9 differs from config.seed (1)');
    expect(lines).toContain('metrics[2].update: 7 does not follow update 1: metrics must be consecutive');
    expect(lines).toContain('episodes.items[2].update: 0 is not after the previous episode (update 1)');
    expect(lines.some((l) => l.startsWith('schedule: does not match the config'))).toBe(true);
  });

  it('talk measurements out of order or outside the recorded updates', () => {
    const p = plain();
    const t = { tmax: 6, tasks: 8, ret: 0.5, muted: 0.4, neededShare: 0.2, messages: 3 };
    p.talk = [
      { updates: 2, ...t },
      { updates: 2, ...t },
      { updates: 99, ...t },
      { updates: 'x', ...t },
    ];
    const lines = rejected(decodeRunFile(json(p))).error.split('\n');
    expect(lines).toContain('talk[3].updates: expected a number, got the string "x"');
    p.talk = p.talk.slice(0, 3);
    const again = rejected(decodeRunFile(json(p))).error.split('\n');
    expect(again).toContain('talk[1].updates: 2 is not after the previous measurement (2 updates)');
    expect(again).toContain('talk[2].updates: 99 is outside the recorded updates (0 to 6 done)');
  });

  it('lists at most five problems', () => {
    const p = plain();
    for (const m of p.metrics) m.ret = 'high';
    const lines = rejected(decodeRunFile(json(p))).error.split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[6]).toBe('... and 1 more problem(s)');
  });

  it('a name over the length cap', () => {
    const lines = rejected(decodeRunFile(json({ ...plain(), name: 'x'.repeat(MAX_NAME_LENGTH + 1) }))).error.split('\n');
    expect(lines).toContain(`name: must have at most ${MAX_NAME_LENGTH} characters, got a string`);
  });

  it('a file over the compressed size limit, before unpacking anything', () => {
    const big = new Uint8Array(MAX_COMPRESSED_BYTES + 1);
    big[0] = 0x1f;
    big[1] = 0x8b;
    expect(rejected(decodeRunFile(big))).toMatchObject({ code: 'too-large', error: 'The file is too large: 50.0 MB compressed, the limit is 50.0 MB.' });
  });

  it('a file that unpacks past the uncompressed limit (a zip bomb), and plain JSON over it', () => {
    const limits = { compressed: 1000, uncompressed: 4096 };
    const bomb = gzipSync(new Uint8Array(100_000).fill(32));
    expect(bomb.length).toBeLessThan(limits.compressed);
    expect(rejected(decodeRunFile(bomb, limits))).toMatchObject({
      code: 'too-large',
      error: 'The file is too large: it unpacks to more than 4096 bytes, the limit.',
    });
    expect(rejected(decodeRunFile(new Uint8Array(5000).fill(32), limits))).toMatchObject({
      code: 'too-large',
      error: 'The file is too large: 5000 bytes of JSON, the limit for a file is 1000 bytes.',
    });
  });

  it('validateRun accepts an in-memory run as it is, fields in any order', () => {
    const run: RunFile = fakeRun(3);
    expect(validateRun(run)).toEqual({ ok: true, run });
    const s = run.schedule;
    expect(validateRun({ ...run, schedule: { steps: s.steps, warmup: s.warmup, shape: s.shape, end: s.end, start: s.start } }).ok).toBe(true);
    expect(strFromU8(json(run)).length).toBeGreaterThan(100);
  });
});

describe('run file helpers', () => {
  it('float32Shortest keeps every float32 exactly in fewer digits', () => {
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 4;
    for (let i = 0; i < 2000; i++) {
      const f = Math.fround(next());
      const s = float32Shortest(f);
      expect(Math.fround(s)).toBe(f);
      expect(JSON.stringify(s).replace(/^-?0\./, '').length).toBeLessThanOrEqual(11);
    }
    expect(float32Shortest(0)).toBe(0);
    expect(float32Shortest(Math.fround(0.1))).toBe(0.1);
  });

  it('summarises a config and names a file safely', () => {
    expect(summariseConfig(testConfig())).toBe('coupled, 2 agents, 10 updates, Tmax 8->24 linear, seed 1');
    expect(summariseConfig(testConfig({ prior: 5, tmaxStart: 24 }))).toBe('coupled, 2 agents, 10 updates + 5 prior, Tmax 24, seed 1');
    expect(summariseConfig(testConfig({ structure: 'islands', islands: 2, critic: true, gamma: 0.9, advantage: 'rloo' }))).toBe(
      'coupled, 2 agents, 2 islands, 10 updates, Tmax 8->24 linear, critic γ 0.9 λ 1, rloo, seed 1',
    );
    expect(suggestedFileName({ name: '../<b>Ünïcode run</b>', created: '2024-05-01T12:00:00.000Z' })).toBe(`b-Unicode-run-b-2024-05-01${RUN_FILE_EXTENSION}`);
    expect(suggestedFileName({ name: '***', created: '2024-05-01T12:00:00.000Z' })).toBe(`run-2024-05-01${RUN_FILE_EXTENSION}`);
    expect(cleanRunName('   ')).toBe('Untitled run');
    expect(cleanRunName('\u200b\u200e ', 'fallback')).toBe('fallback');
    expect(cleanRunName('  a  ')).toBe('a');
    expect(cleanRunName('y'.repeat(500))).toHaveLength(MAX_NAME_LENGTH);
  });
});
