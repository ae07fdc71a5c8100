import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { selfContainedThreadedFactory } from './tfjs-wasm';

const require = createRequire(import.meta.url);
const original = readFileSync(require.resolve('@tensorflow/tfjs-backend-wasm/wasm-out/tfjs-backend-wasm-threaded-simd.js'), 'utf8');

const FACTORY = 'function(WasmBackendModuleThreadedSimd) {';

/** The text of the factory function (what tfjs hands each thread as its script), up to its first helper. */
function factoryHead(code: string): string {
  const at = code.indexOf(FACTORY);
  return code.slice(at, code.indexOf('function GROWABLE_HEAP_I8', at));
}

describe('selfContainedThreadedFactory', () => {
  it('moves _scriptDir into the factory, so its source text needs no wrapper', () => {
    expect(original.indexOf('var _scriptDir')).toBeLessThan(original.indexOf(FACTORY));
    expect(factoryHead(original)).not.toMatch(/_scriptDir/);
    const fixed = selfContainedThreadedFactory(original);
    expect(factoryHead(fixed)).toMatch(/^function\(WasmBackendModuleThreadedSimd\) \{\n {2}var _scriptDir = [^\n]+\n {2}if \(typeof __filename/);
    expect(fixed.indexOf('var _scriptDir')).toBeGreaterThan(fixed.indexOf(FACTORY));
    expect(fixed.length).toBe(original.length);
  });

  it('refuses a file of another shape instead of building threads that hang', () => {
    expect(() => selfContainedThreadedFactory('var WasmBackendModuleThreadedSimd = function() {};')).toThrow(/expected wrapper/);
  });
});
