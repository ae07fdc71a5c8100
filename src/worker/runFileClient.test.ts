import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeRunFile, encodeRunFile } from '../core/runFile';
import { fakeRun } from '../core/testing';
import { importInWorker, openInWorker, renameInWorker } from './runFileClient';
import { FakeRunFileWorker } from './testing';

beforeEach(() => {
  FakeRunFileWorker.reset();
  vi.stubGlobal('Worker', FakeRunFileWorker);
});
afterEach(() => void vi.unstubAllGlobals());

const file = () => encodeRunFile({ ...fakeRun(12), name: 'stored' });

describe('openInWorker', () => {
  it('reads a run in the worker and gets it back whole, with progress; the bytes are moved, not copied', async () => {
    const bytes = file();
    const expected = decodeRunFile(bytes);
    const stages: string[] = [];
    const r = await openInWorker(bytes, { onProgress: (stage) => stages.push(stage) });
    expect(r).toEqual(expected);
    expect(stages).toContain('unpack');
    expect(stages.at(-1)).toBe('check');
    expect(bytes.length).toBe(0);
    expect(FakeRunFileWorker.started.map((w) => [w.jobs[0].kind, w.terminated])).toEqual([['open', true]]);
  });

  it("a damaged file gives the reader's reason", async () => {
    const bytes = file();
    expect(await openInWorker(bytes.slice(0, bytes.length >> 1))).toEqual({
      ok: false,
      error: expect.stringMatching(/^The file is truncated or corrupt: its compressed data cannot be unpacked/),
    });
  });

  it('a cancel stops the worker at once and says so; nothing it sent afterwards is heard', async () => {
    FakeRunFileWorker.hold();
    const controller = new AbortController();
    const progress = vi.fn<(stage: string, done: number) => void>();
    const opening = openInWorker(file(), { onProgress: progress, signal: controller.signal });
    controller.abort();
    expect(await opening).toEqual({ ok: false, error: 'Opening the run was cancelled.', cancelled: true });
    const [worker] = FakeRunFileWorker.started;
    expect(worker.terminated).toBe(true);
    await worker.release();
    expect(progress).not.toHaveBeenCalled();
    expect(await openInWorker(file(), { signal: controller.signal })).toMatchObject({ cancelled: true });
    expect(FakeRunFileWorker.started).toHaveLength(1);
  });

  it('a worker that fails says so', async () => {
    FakeRunFileWorker.hold();
    const opening = openInWorker(file());
    FakeRunFileWorker.started[0].fail('out of memory');
    expect(await opening).toEqual({ ok: false, error: 'The run could not be read: out of memory.' });
  });
});

describe('importInWorker and renameInWorker', () => {
  it('import packs a file with its facts; rename packs it under a new name and leaves the caller its bytes', async () => {
    const bytes = file();
    const copy = bytes.slice();
    const renamed = await renameInWorker(bytes, 'new name');
    expect(bytes).toEqual(copy);
    if (!renamed.ok) throw new Error(renamed.error);
    expect(renamed.facts.name).toBe('new name');
    expect(decodeRunFile(renamed.bytes)).toEqual({ ok: true, run: { ...fakeRun(12), name: 'new name' } });
    const imported = await importInWorker(copy);
    expect(imported).toMatchObject({ ok: true, facts: { name: 'stored', updates: 12 } });
    expect(copy.length).toBe(0);
  });

  it('an import of a bad file says why', async () => {
    expect(await importInWorker(new Uint8Array(0))).toEqual({ ok: false, error: 'The file is empty.' });
  });
});
