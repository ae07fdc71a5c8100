import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SCHEMA } from '../rl/config';
import { fixtureBytes, RUN_FIXTURES } from './fixtures/runFiles';
import { trainableCheckpoint } from './runChecks';
import { RUN_VERSION } from './runFormat';
import { decodeRunFile, isGzip, runFacts } from './runFile';

/**
 * The checked-in run files of every version open with the same facts: what the app shows of an
 * imported file (its list entry, its curve, its episodes) and whether it can be trained on.
 */
describe('checked-in run files keep opening', () => {
  it('has a file for every version this build reads', () => {
    const versions = new Set(RUN_FIXTURES.map((f) => f.version));
    for (let v = 1; v <= RUN_VERSION; v++) expect(versions.has(v), `a fixture of version ${v}`).toBe(true);
  });

  for (const f of RUN_FIXTURES) {
    it(`${f.file}: ${f.what}`, () => {
      const bytes = fixtureBytes(f);
      expect(isGzip(bytes)).toBe(true);
      const r = decodeRunFile(bytes);
      if (!r.ok) throw new Error(`${f.file} no longer opens: ${r.error}`);
      const run = r.run;
      const raw = JSON.parse(gunzipSync(bytes).toString('utf8')) as { version: number; config: Record<string, unknown> };
      expect(raw.version).toBe(f.version);
      expect(run.config.family).toBe(f.family);
      expect(run.config.structure).toBe(f.structure);
      expect(run.config.agents).toBe(f.agents);
      expect(run.metrics.map((m) => m.update)).toEqual(f.returns.map((_, i) => i));
      expect(run.metrics.map((m) => m.ret)).toEqual(f.returns);
      expect(run.metrics.map((m) => m.tmax)).toEqual(f.tmax);
      expect(run.episodes.items.map((e) => e.events.length)).toEqual(f.episodeEvents);
      expect(run.episodes.items.map((e) => e.structure?.kind ?? 'flat')).toEqual(f.returns.map(() => f.structure));
      expect(run.checkpoints.items.map((c) => c.updates)).toEqual(f.checkpoints);
      expect(run.talk?.length ?? 0).toBe(f.talk);
      const last = (run.metrics.at(-1)?.structure ?? {}) as Record<string, unknown>;
      expect(Object.keys(last).sort()).toEqual(Object.keys(f.structureMetrics).sort());
      for (const [key, value] of Object.entries(f.structureMetrics)) expect(last[key], key).toBe(value);
      // Settings the file predates are read as their defaults, which is what such runs did.
      for (const key of f.missingSettings) {
        expect(Object.hasOwn(raw.config, key), key).toBe(false);
        expect(run.config[key as keyof typeof SCHEMA], key).toBe(SCHEMA[key as keyof typeof SCHEMA].default);
      }
      const facts = runFacts(run, bytes.length);
      expect(facts.finalReturn).toBe(f.returns.at(-1));
      expect(facts.updates).toBe(f.returns.length);
      expect(facts.checkpoints).toBe(f.checkpoints.length);
      expect(trainableCheckpoint(run).ok).toBe(true);
    });
  }
});
