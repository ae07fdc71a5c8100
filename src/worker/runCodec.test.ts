import { describe, expect, it } from 'vitest';
import { decodeRunFile, encodeRunFile } from '../core/runFile';
import { fakeRun } from '../core/testing';
import { directCodec } from './runCodec';

describe('directCodec', () => {
  it('opens a run file as the reader does, with progress, and says why a bad one cannot be read', async () => {
    const bytes = encodeRunFile(fakeRun(5));
    const stages: string[] = [];
    expect(await directCodec.open(bytes, { onProgress: (s) => stages.push(s) })).toEqual(decodeRunFile(bytes));
    expect(stages).toEqual(['unpack', 'parse', 'check']);
    expect(await directCodec.open(new Uint8Array(0))).toEqual({ ok: false, error: 'The file is empty.' });
  });

  it('a stopped open reads nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await directCodec.open(encodeRunFile(fakeRun(5)), { signal: controller.signal })).toEqual({
      ok: false,
      error: 'Opening the run was cancelled.',
      cancelled: true,
    });
  });

  it('renames: the file packed again under the new name, with its facts', async () => {
    const r = await directCodec.rename(encodeRunFile(fakeRun(5)), 'renamed');
    if (!r.ok) throw new Error(r.error);
    expect(decodeRunFile(r.bytes)).toEqual({ ok: true, run: { ...fakeRun(5), name: 'renamed' } });
    expect(r.facts).toMatchObject({ name: 'renamed', updates: 5, bytes: r.bytes.length });
    expect(await directCodec.rename(new Uint8Array([1, 2, 3]), 'x')).toEqual({ ok: false, error: expect.stringMatching(/^The file is truncated or corrupt/) });
  });
});
