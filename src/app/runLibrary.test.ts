import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeRunFile, runFacts } from '../core/runFile';
import type { RunFile } from '../core/runFormat';
import { fakeRun } from '../core/testing';
import { FakeRunFileWorker } from '../worker/testing';
import { RunLibrary } from '../store/runDatabase';
import { createAppStore, type AppState } from '../store/store';
import { workerCodec } from '../worker/runFileClient';
import type { StoreApi } from 'zustand';
import { RunLibraryController } from './runLibrary';

/** A fresh store and library for every test, handed to the controller. */
let store: StoreApi<AppState>;
let opened: Promise<RunLibrary>;
let controller: RunLibraryController;
let dbCount = 0;
const runLibrary = () => opened;

const run = (name: string, updates = 4): RunFile => ({ ...fakeRun(updates), name });

beforeEach(() => {
  store = createAppStore();
  opened = RunLibrary.open(`run-library-test-${++dbCount}`, workerCodec);
  controller = new RunLibraryController(store, { library: runLibrary, codec: workerCodec, base: '/' });
  FakeRunFileWorker.reset();
  vi.stubGlobal('Worker', FakeRunFileWorker);
});
afterEach(() => void vi.unstubAllGlobals());

describe('replayRun', () => {
  it('reads the stored run in the run-file worker, showing its progress, then replays it', async () => {
    const stored = run('stored', 6);
    const id = await (await runLibrary()).save(stored);
    FakeRunFileWorker.hold();
    const replaying = controller.replayRun(id);
    const worker = await FakeRunFileWorker.job(1);
    expect(store.getState().opening).toEqual({ name: 'stored', stage: 'reading', done: 0 });
    expect(store.getState().replay).toBeNull();
    await worker.release();
    await replaying;
    expect(FakeRunFileWorker.started[0].jobs.map((j) => j.kind)).toEqual(['open']);
    expect(store.getState().replay).toMatchObject({ id, run: stored, index: 5 });
    expect(store.getState().opening).toBeNull();
    expect(store.getState().libraryMessage).toBeNull();
  });

  it('a stored run that cannot be read says which and why, and the page stays as it was', async () => {
    const damaged = run('damaged');
    const good = encodeRunFile(damaged);
    const { id } = await (await runLibrary()).putEncoded(null, good.slice(0, 40), runFacts(damaged, 40));
    await controller.replayRun(id);
    expect(store.getState().replay).toBeNull();
    expect(store.getState().opening).toBeNull();
    expect(store.getState().libraryMessage).toEqual({
      kind: 'error',
      text: expect.stringMatching(new RegExp(`^The stored run ${id} cannot be read. The file is truncated or corrupt`)),
    });
  });

  it('opening another run stops the one being opened: only the later one shows, with no error', async () => {
    const lib = await runLibrary();
    const [a, b] = [await lib.save(run('first')), await lib.save(run('second'))];
    FakeRunFileWorker.hold();
    const first = controller.replayRun(a);
    await FakeRunFileWorker.job(1);
    FakeRunFileWorker.hold(false);
    await controller.replayRun(b);
    await first;
    expect(FakeRunFileWorker.started.map((w) => w.terminated)).toEqual([true, true]);
    expect(store.getState().replay?.run.name).toBe('second');
    expect(store.getState().libraryMessage).toBeNull();
    expect(store.getState().opening).toBeNull();
  });
});

describe('openPretrained', () => {
  it('reads the shipped file in the run-file worker and replays it; a damaged one says so', async () => {
    const shipped = encodeRunFile(run('pretrained'));
    const fetched: string[] = [];
    vi.stubGlobal(
      'fetch',
      async (url: string) => (fetched.push(url), new Response((fetched.length === 1 ? shipped : shipped.slice(0, 50)) as Uint8Array<ArrayBuffer>)),
    );
    await controller.openPretrained('coupled');
    expect(store.getState().libraryMessage).toBeNull();
    expect(fetched[0]).toMatch(/pretrained\/coupled\.swarmrun\.json\.gz$/);
    expect(FakeRunFileWorker.started.map((w) => w.jobs[0].kind)).toEqual(['open']);
    expect(store.getState().replay).toMatchObject({ id: null, run: run('pretrained') });
    store.getState().leaveReplay();
    await controller.openPretrained('mixed');
    expect(store.getState().replay).toBeNull();
    expect(store.getState().libraryMessage?.text).toMatch(/^The trained mixed swarm could not be loaded: The file is truncated or corrupt/);
  });

  it('a run no longer wanted while its file loads is neither shown nor reported, and the one before stays on screen', async () => {
    const shipped = encodeRunFile(run('pretrained'));
    const wanted = new AbortController();
    vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
      // The file arrives after whoever asked for it has moved on (a fetch that honours the signal would reject instead).
      wanted.abort();
      expect(init?.signal).toBe(wanted.signal);
      return new Response(shipped as Uint8Array<ArrayBuffer>);
    });
    store.getState().enterReplay(run('before'), null);
    await controller.openPretrained('coupled', wanted.signal);
    expect(store.getState().replay?.run.name).toBe('before');
    expect(store.getState().libraryMessage).toBeNull();
    expect(store.getState().opening).toBeNull();
    // A fetch aborted by the signal is not reported as a failure either.
    vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => Promise.reject(init?.signal?.reason ?? new Error('aborted')));
    await controller.openPretrained('coupled', wanted.signal);
    expect(store.getState().libraryMessage).toBeNull();
  });
});

describe('compareWith', () => {
  it("draws a stored run's curve over the live one, clears it, and says so when the run is gone", async () => {
    const stored = run('baseline', 5);
    const id = await (await runLibrary()).save(stored);
    await controller.compareWith(id);
    expect(store.getState().overlay).toEqual({ id, name: 'baseline', metrics: stored.metrics });
    await controller.compareWith(null);
    expect(store.getState().overlay).toBeNull();
    await controller.compareWith(id + 100);
    expect(store.getState().overlay).toBeNull();
    expect(store.getState().libraryMessage).toEqual({
      kind: 'error',
      text: `The run to compare with could not be read: There is no run ${id + 100} in the library.`,
    });
  });
});
