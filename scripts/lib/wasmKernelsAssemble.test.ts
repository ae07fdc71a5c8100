import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assembleKernels, generatedKernels, KERNELS_BINARY, KERNELS_WAT } from './wasmKernelsAssemble';

describe('the wasm kernels', () => {
  it('the committed binary is the assembled source (run `npm run build:kernels` after an edit)', async () => {
    expect(readFileSync(KERNELS_BINARY, 'utf8')).toBe(await generatedKernels());
  });

  it('a source that does not assemble is refused with its error', async () => {
    const wat = readFileSync(KERNELS_WAT, 'utf8');
    await expect(assembleKernels(wat.replace('i32x4.max_s', 'i32x4.nonsense'))).rejects.toThrow(/nonsense/);
    await expect(assembleKernels(wat.replace('(memory 1)', '(memory 2)'))).rejects.toThrow(/import its memory/);
  });
});
