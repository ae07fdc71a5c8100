import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeRunFile } from '../../../src/core/runFile';
import { PRETRAINED, pretrainedConfig } from '../../../src/core/pretrained';

describe('the pretrained swarms the app offers', () => {
  for (const family of PRETRAINED) {
    it(`${family}: the file is shipped, reads as a run file of that family, trained as pretrainedConfig says, and holds weights`, () => {
      const r = decodeRunFile(new Uint8Array(readFileSync(`public/pretrained/${family}.swarmrun.json.gz`)));
      if (!r.ok) throw new Error(r.error);
      expect(r.run.config.family).toBe(family);
      const recipe = pretrainedConfig(family);
      expect({ updates: r.run.config.updates, tmaxEnd: r.run.config.tmaxEnd, prior: r.run.config.prior }).toEqual({
        updates: recipe.updates,
        tmaxEnd: recipe.tmaxEnd,
        prior: recipe.prior,
      });
      expect(r.run.checkpoints.items.length).toBeGreaterThan(0);
      expect(r.run.metrics.length).toBe(r.run.totalUpdates);
    });
  }
});
