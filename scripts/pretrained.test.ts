import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeRunFile } from '../src/core/runFile';
import { PRETRAINED } from '../src/app/runLibrary';

describe('the pretrained swarms the app offers', () => {
  for (const family of PRETRAINED) {
    it(`${family}: the file is shipped, reads as a run file of that family, and holds weights`, () => {
      const r = decodeRunFile(new Uint8Array(readFileSync(`public/pretrained/${family}.swarmrun.json.gz`)));
      if (!r.ok) throw new Error(r.error);
      expect(r.run.config.family).toBe(family);
      expect(r.run.checkpoints.items.length).toBeGreaterThan(0);
      expect(r.run.metrics.length).toBe(r.run.totalUpdates);
    });
  }
});
