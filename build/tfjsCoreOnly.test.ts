import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as full from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import * as coreOnly from './tfjs-core-only';
import { TFJS_CORE_ONLY, tfjsCoreOnly } from './tfjsCoreOnly';

/** Every `tf.<name>` the code bundled into the training worker reads (src/rl, src/worker, src/sim, src/core; tests aside). */
function namesUsed(): Set<string> {
  const names = new Set<string>();
  for (const dir of ['src/rl', 'src/worker', 'src/sim', 'src/core'])
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/\btf\.([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
    }
  return names;
}

describe('the worker bundle’s @tensorflow/tfjs', () => {
  it('is the core-only module for exactly that import', () => {
    const plugin = tfjsCoreOnly();
    const resolve = plugin.resolveId as (id: string) => string | null;
    expect(resolve('@tensorflow/tfjs')).toBe(TFJS_CORE_ONLY);
    expect(resolve('@tensorflow/tfjs-core')).toBeNull();
    expect(resolve('@tensorflow/tfjs-backend-wasm')).toBeNull();
  });

  it('has every value of the full package that the trainer, the policy and the worker use', () => {
    const used = [...namesUsed()];
    // Type-only names (tf.NamedTensorMap) are no values in either; the rest must be in both.
    const values = used.filter((n) => n in full);
    expect(values.length).toBeGreaterThan(30);
    expect(values.filter((n) => !(n in coreOnly))).toEqual([]);
  });
});
