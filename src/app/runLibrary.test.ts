import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeRunFile, runFacts, type RunFile } from '../core/runFile';
import { fakeRun } from '../core/testing';
import { FakeRunFileWorker } from '../worker/testing';
import { openPretrained, replayRun, runLibrary } from './runLibrary';
import { useApp } from '../store/store';

const initial = useApp.getState();

const run = (name: string, updates = 4): RunFile => ({ ...fakeRun(updates), name });

beforeEach(() => {
  useApp.setState(initial, true);
  FakeRunFileWorker.reset();
  vi.stubGlobal('Worker', FakeRunFileWorker);
});
afterEach(() => void vi.unstubAllGlobals());

describe('replayRun', () => {
  it('reads the stored run in the run-file worker, showing its progress, then replays it', async () => {
    const stored = run('stored', 6);
    const id = await (await runLibrary()).save(stored);
    FakeRunFileWorker.hold();
    const replaying = replayRun(id);
    const worker = await FakeRunFileWorker.job(1);
    expect(useApp.getState().opening).toEqual({ name: 'stored', stage: 'reading', done: 0 });
    expect(useApp.getState().replay).toBeNull();
    await worker.release();
    await replaying;
    expect(FakeRunFileWorker.started[0].jobs.map((j) => j.kind)).toEqual(['open']);
    expect(useApp.getState().replay).toMatchObject({ id, run: stored, index: 5 });
    expect(useApp.getState().opening).toBeNull();
    expect(useApp.getState().libraryMessage).toBeNull();
  });

  it('a stored run that cannot be read says which and why, and the page stays as it was', async () => {
    const damaged = run('damaged');
    const good = encodeRunFile(damaged);
    const { id } = await (await runLibrary()).putEncoded(null, good.slice(0, 40), runFacts(damaged, 40));
    await replayRun(id);
    expect(useApp.getState().replay).toBeNull();
    expect(useApp.getState().opening).toBeNull();
    expect(useApp.getState().libraryMessage).toEqual({ kind: 'error', text: expect.stringMatching(new RegExp(`^The stored run ${id} cannot be read. The file is truncated or corrupt`)) });
  });

  it('opening another run stops the one being opened: only the later one shows, with no error', async () => {
    const lib = await runLibrary();
    const [a, b] = [await lib.save(run('first')), await lib.save(run('second'))];
    FakeRunFileWorker.hold();
    const first = replayRun(a);
    await FakeRunFileWorker.job(1);
    FakeRunFileWorker.hold(false);
    await replayRun(b);
    await first;
    expect(FakeRunFileWorker.started.map((w) => w.terminated)).toEqual([true, true]);
    expect(useApp.getState().replay?.run.name).toBe('second');
    expect(useApp.getState().libraryMessage).toBeNull();
    expect(useApp.getState().opening).toBeNull();
  });
});

describe('openPretrained', () => {
  it('reads the shipped file in the run-file worker and replays it; a damaged one says so', async () => {
    const shipped = encodeRunFile(run('pretrained'));
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => (fetched.push(url), new Response((fetched.length === 1 ? shipped : shipped.slice(0, 50)) as Uint8Array<ArrayBuffer>)));
    await openPretrained('coupled');
    expect(useApp.getState().libraryMessage).toBeNull();
    expect(fetched[0]).toMatch(/pretrained\/coupled\.swarmrun\.json\.gz$/);
    expect(FakeRunFileWorker.started.map((w) => w.jobs[0].kind)).toEqual(['open']);
    expect(useApp.getState().replay).toMatchObject({ id: null, run: run('pretrained') });
    useApp.getState().leaveReplay();
    await openPretrained('mixed');
    expect(useApp.getState().replay).toBeNull();
    expect(useApp.getState().libraryMessage?.text).toMatch(/^The trained mixed swarm could not be loaded: The file is truncated or corrupt/);
  });
});
