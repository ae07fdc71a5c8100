import 'fake-indexeddb/auto';
import { strToU8 } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeRunFile, encodeRunFile, RUN_FILE_EXTENSION, runFacts } from '../core/runFile';
import { RUN_VERSION, type RunFile } from '../core/runFormat';
import { fakeRun } from '../core/testing';
import { directCodec, type RunCodec } from '../worker/runCodec';
import { LibraryError, RunLibrary, sameBytes } from './runDatabase';

let dbCount = 0;
const open = () => RunLibrary.open(`library-test-${++dbCount}`);

const named = (name: string, created: string, updates = 4): RunFile => ({ ...fakeRun(updates), name, created });

/** Everything the library holds: summaries and every run, for before/after comparisons. */
async function contents(lib: RunLibrary): Promise<unknown> {
  const list = await lib.list();
  return { list, runs: await Promise.all(list.map((s) => lib.get(s.id))) };
}

const quotaFull = () =>
  vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('RunLibrary', () => {
  it('saves runs and lists their summaries newest first without loading the runs', async () => {
    const lib = await open();
    expect(await lib.list()).toEqual([]);
    const a = named('first', '2024-05-01T10:00:00.000Z', 6);
    const b = named('second', '2024-05-02T10:00:00.000Z', 3);
    const idA = await lib.save(a);
    const idB = await lib.save(b);
    expect(idA).not.toBe(idB);
    const list = await lib.list();
    expect(list.map((s) => s.name)).toEqual(['second', 'first']);
    expect(list[1]).toEqual({
      id: idA,
      name: 'first',
      created: '2024-05-01T10:00:00.000Z',
      configSummary: 'coupled, 2 agents, 6 updates, Tmax 8->24 linear, seed 1',
      finalReturn: a.metrics[5].ret,
      updates: 6,
      checkpoints: 1,
      bytes: encodeRunFile(a).length,
    });
    const getSpy = vi.spyOn(IDBObjectStore.prototype, 'getAll');
    await lib.list();
    expect(getSpy.mock.contexts.map((store) => (store as IDBObjectStore).name)).toEqual(['summaries']);
    expect(await lib.get(idA)).toEqual(a);
    expect(await lib.get(999)).toBeUndefined();
    lib.close();
  });

  it('renames a run in the list and in the file, keeping hostile text as plain text', async () => {
    const lib = await open();
    const id = await lib.save(named('old', '2024-05-01T10:00:00.000Z'));
    const hostile = '  <script>alert("x")</script> & co  ';
    const summary = await lib.rename(id, hostile);
    expect(summary.name).toBe('<script>alert("x")</script> & co');
    expect((await lib.list())[0].name).toBe(summary.name);
    expect((await lib.get(id))?.name).toBe(summary.name);
    for (const blank of ['   ', '\u200b '])
      await expect(lib.rename(id, blank)).rejects.toMatchObject({ code: 'invalid', message: 'A run name cannot be empty: the run keeps its name.' });
    expect((await lib.list())[0].name).toBe(summary.name);
    await expect(lib.rename(42, 'x')).rejects.toMatchObject({ code: 'not-found', message: 'There is no run 42 in the library.' });
    lib.close();
  });

  it('replaces a run being recorded with its newer state, keeping a name given in the library', async () => {
    const lib = await open();
    const id = await lib.save(named('recording', '2024-05-01T10:00:00.000Z', 2));
    await lib.rename(id, 'my demo');
    const later = await lib.replace(id, named('recording', '2024-05-01T10:00:00.000Z', 5));
    expect(later).toMatchObject({ id, name: 'my demo', updates: 5 });
    expect((await lib.get(id))?.metrics).toHaveLength(5);
    expect((await lib.get(id))?.name).toBe('my demo');
    expect(await lib.list()).toHaveLength(1);
    await expect(lib.replace(id + 100, named('x', '2024-05-01T10:00:00.000Z'))).rejects.toThrow(/no run/);
    const before = await contents(lib);
    quotaFull();
    await expect(lib.replace(id, named('recording', '2024-05-01T10:00:00.000Z', 9))).rejects.toThrow(/Browser storage is full/);
    vi.restoreAllMocks();
    expect(await contents(lib)).toEqual(before);
  });

  it('stores a run encoded elsewhere, new or over itself, keeping a name given in the library', async () => {
    const lib = await open();
    const run = named('recording', '2024-05-01T10:00:00.000Z', 2);
    const bytes = encodeRunFile(run);
    const first = await lib.putEncoded(null, bytes, runFacts(run, bytes.length));
    expect(first).toMatchObject({ name: 'recording', updates: 2 });
    await lib.rename(first.id, 'class demo');
    const more = named('recording', '2024-05-01T10:00:00.000Z', 7);
    const bytes2 = encodeRunFile(more);
    const second = await lib.putEncoded(first.id, bytes2, runFacts(more, bytes2.length));
    expect(second).toMatchObject({ id: first.id, name: 'class demo', updates: 7 });
    expect((await lib.get(first.id))?.metrics).toHaveLength(7);
    await expect(lib.putEncoded(first.id + 50, bytes2, runFacts(more, bytes2.length))).rejects.toThrow(/no run/);
  });

  it('removes a run and restores it under the same id (undo)', async () => {
    const lib = await open();
    const keep = await lib.save(named('keep', '2024-05-01T10:00:00.000Z'));
    const run = named('gone', '2024-05-03T10:00:00.000Z');
    const id = await lib.save(run);
    const before = await contents(lib);
    const token = await lib.remove(id);
    expect((await lib.list()).map((s) => s.id)).toEqual([keep]);
    expect(await lib.get(id)).toBeUndefined();
    await expect(lib.remove(id)).rejects.toBeInstanceOf(LibraryError);
    await lib.restore(token);
    expect(await contents(lib)).toEqual(before);
    expect(await lib.get(id)).toEqual(run);
    const next = await lib.save(named('later', '2024-05-04T10:00:00.000Z'));
    expect(next).toBeGreaterThan(id);
    lib.close();
  });

  it('imports gzip and plain JSON run files and exports them back', async () => {
    const lib = await open();
    const run = named('imported', '2024-05-01T10:00:00.000Z', 5);
    const gz = await lib.importFile(encodeRunFile(run));
    const plain = await lib.importFile(strToU8(JSON.stringify(run)));
    expect(gz.ok && plain.ok).toBe(true);
    if (!gz.ok) return;
    expect(gz.summary.name).toBe('imported');
    expect(await lib.get(gz.id)).toEqual(run);
    const out = await lib.exportRun(gz.id);
    expect(out.filename).toBe(`imported-2024-05-01${RUN_FILE_EXTENSION}`);
    expect(decodeRunFile(out.bytes)).toEqual({ ok: true, run });
    await expect(lib.exportRun(77)).rejects.toMatchObject({ code: 'not-found' });
    lib.close();
  });

  it('a failed import says why and leaves the library unchanged', async () => {
    const lib = await open();
    await lib.save(named('existing', '2024-05-01T10:00:00.000Z'));
    const before = await contents(lib);
    const good = encodeRunFile(named('new', '2024-05-02T10:00:00.000Z'));
    const truncated = await lib.importFile(good.subarray(0, good.length - 30));
    expect(truncated).toEqual({ ok: false, error: expect.stringMatching(/^The file is truncated or corrupt/) });
    const newer = await lib.importFile(strToU8(JSON.stringify({ ...named('new', '2024-05-02T10:00:00.000Z'), version: RUN_VERSION + 1 })));
    expect(newer).toEqual({
      ok: false,
      error: expect.stringMatching(new RegExp(`^Unsupported run file version ${RUN_VERSION + 1} \\(written by a newer version`)),
    });
    expect(await contents(lib)).toEqual(before);
    lib.close();
  });

  it('refuses an invalid run on save', async () => {
    const lib = await open();
    await expect(lib.save({ ...named('x', '2024-05-01T10:00:00.000Z'), seed: 5 })).rejects.toMatchObject({
      code: 'invalid',
      message: expect.stringMatching(/seed: 5 differs from config.seed/),
    });
    expect(await lib.list()).toEqual([]);
    lib.close();
  });

  it('a full storage quota gives a clear error and changes nothing', async () => {
    const lib = await open();
    const id = await lib.save(named('existing', '2024-05-01T10:00:00.000Z'));
    const before = await contents(lib);
    const token = await lib.remove(id);
    await lib.restore(token);
    quotaFull();
    const err = await lib.save(named('new', '2024-05-02T10:00:00.000Z')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LibraryError);
    expect(err).toMatchObject({
      code: 'quota',
      message: expect.stringMatching(/^Browser storage is full: could not save the run \(\d+ KB\)\. Delete or export some runs/),
    });
    const imported = await lib.importFile(encodeRunFile(named('new', '2024-05-02T10:00:00.000Z')));
    expect(imported).toEqual({ ok: false, error: expect.stringMatching(/^Browser storage is full: /) });
    await expect(lib.rename(id, 'renamed')).rejects.toMatchObject({ code: 'quota' });
    await expect(lib.restore(token)).rejects.toMatchObject({ code: 'quota' });
    vi.restoreAllMocks();
    expect(await contents(lib)).toEqual(before);
    lib.close();
  });

  it('reads and renames stored runs through its codec (on the page: a worker), passing on progress and the stop signal', async () => {
    const calls: unknown[][] = [];
    const codec: RunCodec = {
      open: (bytes, options) => (calls.push(['open', bytes.length, options]), directCodec.open(bytes, options)),
      rename: (bytes, name) => (calls.push(['rename', bytes.length, name]), directCodec.rename(bytes, name)),
    };
    const lib = await RunLibrary.open(`library-test-${++dbCount}`, codec);
    const run = named('stored', '2024-05-01T10:00:00.000Z', 6);
    const id = await lib.save(run);
    const size = (await lib.summary(id))!.bytes;
    const options = { onProgress: () => undefined, signal: new AbortController().signal };
    expect(await lib.get(id, options)).toEqual(run);
    const renamed = await lib.rename(id, '  new name ');
    expect(calls).toEqual([
      ['open', size, options],
      ['rename', size, 'new name'],
    ]);
    expect(renamed).toEqual({ ...(await lib.summary(id)), name: 'new name' });
    expect(await lib.get(id)).toEqual({ ...run, name: 'new name' });
    lib.close();
  });

  it('a stored run that can no longer be read says which and why, on replay and on rename, and nothing changes', async () => {
    const lib = await open();
    const run = named('damaged', '2024-05-01T10:00:00.000Z');
    const good = encodeRunFile(run);
    const { id } = await lib.putEncoded(null, good.slice(0, good.length >> 1), runFacts(run, good.length));
    const before = [await lib.list(), await lib.exportRun(id)];
    const why = { code: 'corrupt', message: expect.stringMatching(new RegExp(`^The stored run ${id} cannot be read. The file is truncated or corrupt`)) };
    await expect(lib.get(id)).rejects.toMatchObject(why);
    await expect(lib.rename(id, 'other')).rejects.toMatchObject(why);
    expect([await lib.list(), await lib.exportRun(id)]).toEqual(before);
    lib.close();
  });

  it('a read stopped by its caller is a cancelled error', async () => {
    const codec: RunCodec = { ...directCodec, open: async () => ({ ok: false, error: 'Opening the run was cancelled.', cancelled: true }) };
    const lib = await RunLibrary.open(`library-test-${++dbCount}`, codec);
    const id = await lib.save(named('x', '2024-05-01T10:00:00.000Z'));
    await expect(lib.get(id)).rejects.toMatchObject({ code: 'cancelled', message: 'Opening the run was cancelled.' });
    lib.close();
  });

  it('a rename never writes over a save that landed while the file was packed: it renames the newer file', async () => {
    let lib: RunLibrary | null = null;
    let id = 0;
    let saves = 0;
    const saveMore = async (n: number) => {
      const more = named('recording', '2024-05-01T10:00:00.000Z', n);
      const bytes = encodeRunFile(more);
      await lib!.putEncoded(id, bytes, runFacts(more, bytes.length));
    };
    // The recorder saves once (or, `always`, every time) while the codec packs the file.
    const racing = (always: boolean): RunCodec => ({
      ...directCodec,
      rename: async (bytes, name) => {
        if (always || saves === 0) await saveMore(5 + ++saves);
        return directCodec.rename(bytes, name);
      },
    });
    lib = await RunLibrary.open(`library-test-${++dbCount}`, racing(false));
    id = await lib.save(named('recording', '2024-05-01T10:00:00.000Z', 2));
    expect(await lib.rename(id, 'demo')).toMatchObject({ id, name: 'demo', updates: 6 });
    const stored = await lib.get(id);
    expect([stored?.name, stored?.metrics.length]).toEqual(['demo', 6]);
    lib.close();

    saves = 0;
    lib = await RunLibrary.open(`library-test-${++dbCount}`, racing(true));
    id = await lib.save(named('recording', '2024-05-01T10:00:00.000Z', 2));
    await expect(lib.rename(id, 'demo')).rejects.toMatchObject({ code: 'storage', message: expect.stringMatching(/saved 3 times while it was being renamed/) });
    expect((await lib.get(id))?.metrics).toHaveLength(8);
    expect((await lib.list())[0]).toMatchObject({ name: 'recording', updates: 8 });
    lib.close();
  });
});

describe('the journal of shown updates', () => {
  const rows = (run: RunFile, from: number, to: number) =>
    fakeRun(to)
      .metrics.slice(from, to)
      .map((m) => ({ ...m, ret: m.ret / (run.metrics.length + 1) })); // rows of their own, within the 0..1 a return allows

  it('folds the updates a closed page showed after its last save into the run when the library opens again', async () => {
    const name = `library-test-${++dbCount}`;
    let lib = await RunLibrary.open(name);
    const run = named('recording', '2024-05-01T10:00:00.000Z', 4);
    const bytes = encodeRunFile(run);
    const { id } = await lib.putEncoded(null, bytes, runFacts(run, bytes.length));
    // Updates 2..6 shown: 2 and 3 are in the file already, 4..6 only in the journal.
    const shown = rows(run, 2, 7);
    await lib.journal(id, shown);
    expect(await lib.journalRows(id)).toBe(5);
    lib.close();
    lib = await RunLibrary.open(name);
    expect((await lib.list())[0]).toMatchObject({ id, name: 'recording', updates: 7 });
    const stored = (await lib.get(id))!;
    expect(stored.metrics.map((m) => m.update)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(stored.metrics.slice(4)).toEqual(shown.slice(2));
    // The file's own rows are left as they were; its checkpoints are the saved ones.
    expect(stored.metrics.slice(0, 4)).toEqual(run.metrics);
    expect(stored.checkpoints).toEqual(run.checkpoints);
    expect(await lib.journalRows(id)).toBe(0);
    lib.close();
  });

  it('a save clears the rows its file holds, a gap stops the fold, and a deleted run takes its rows along', async () => {
    const name = `library-test-${++dbCount}`;
    let lib = await RunLibrary.open(name);
    const run = named('recording', '2024-05-01T10:00:00.000Z', 3);
    const b3 = encodeRunFile(run);
    const { id } = await lib.putEncoded(null, b3, runFacts(run, b3.length));
    await lib.journal(id, rows(run, 3, 6));
    const longer = named('recording', '2024-05-01T10:00:00.000Z', 5);
    const b5 = encodeRunFile(longer);
    await lib.putEncoded(id, b5, runFacts(longer, b5.length));
    expect(await lib.journalRows(id)).toBe(1);
    // Update 6 is missing: 7 cannot follow the file's update 5.
    await lib.journal(id, rows(run, 7, 8));
    const other = await lib.save(named('other', '2024-05-02T10:00:00.000Z', 2));
    await lib.journal(other, rows(run, 2, 4));
    await lib.remove(other);
    expect(await lib.journalRows(other)).toBe(0);
    lib.close();
    lib = await RunLibrary.open(name);
    expect((await lib.get(id))!.metrics.map((m) => m.update)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(await lib.list()).toHaveLength(1);
    lib.close();
  });
});

describe('a library deleted under the page', () => {
  it('lets the deletion through, says so, and a library opened again is a new, empty one', async () => {
    const name = `library-test-${++dbCount}`;
    const closed: string[] = [];
    const lib = await RunLibrary.open(name, directCodec, { closed: (why) => closed.push(why) });
    await lib.save(named('kept?', '2024-05-01T10:00:00.000Z', 2));
    await new Promise<void>((resolve, reject) => {
      const r = indexedDB.deleteDatabase(name);
      r.onsuccess = () => resolve();
      r.onerror = () => reject(r.error);
    });
    expect(closed).toEqual(['deleted']);
    const again = await RunLibrary.open(name);
    expect(await again.list()).toEqual([]);
    again.close();
  });
});

describe('two pages carrying one run on', () => {
  it('a page saves over the runs it recorded; once another page claims a run (it resumed it), the first page’s saves become a new run', async () => {
    const lib = await open();
    const run = named('recording', '2024-05-01T10:00:00.000Z', 3);
    const b3 = encodeRunFile(run);
    const { id } = await lib.putEncoded(null, b3, runFacts(run, b3.length), 'tab A');
    const longer = named('recording', '2024-05-01T10:00:00.000Z', 5);
    const b5 = encodeRunFile(longer);
    expect((await lib.putEncoded(id, b5, runFacts(longer, b5.length), 'tab A')).id).toBe(id);
    await lib.claim(id, 'tab B');
    const resumed = named('recording', '2024-05-01T10:00:00.000Z', 8);
    const b8 = encodeRunFile(resumed);
    expect(await lib.putEncoded(id, b8, runFacts(resumed, b8.length), 'tab B')).toMatchObject({ id, updates: 8, writer: 'tab B' });
    // Tab A saves its own continuation (6 updates): a new run, and tab B's 8 stay.
    const mine = named('recording', '2024-05-01T10:00:00.000Z', 6);
    const b6 = encodeRunFile(mine);
    const copy = await lib.putEncoded(id, b6, runFacts(mine, b6.length), 'tab A');
    expect(copy.id).not.toBe(id);
    expect((await lib.list()).map((r) => [r.id, r.updates, r.writer]).sort()).toEqual(
      [
        [id, 8, 'tab B'],
        [copy.id, 6, 'tab A'],
      ].sort(),
    );
    expect((await lib.get(id))?.metrics).toHaveLength(8);
    lib.close();
  });
});

describe('sameBytes', () => {
  it('compares whole files, aligned or not, to the last byte', () => {
    const a = Uint8Array.from({ length: 103 }, (_, i) => (i * 7) & 255);
    expect(sameBytes(a, a.slice())).toBe(true);
    const b = a.slice();
    b[102] ^= 1;
    expect(sameBytes(a, b)).toBe(false);
    b[102] ^= 1;
    b[40] ^= 1;
    expect(sameBytes(a, b)).toBe(false);
    expect(sameBytes(a, a.subarray(0, 102))).toBe(false);
    const shifted = new Uint8Array(104);
    shifted.set(a, 1);
    expect(sameBytes(shifted.subarray(1), a)).toBe(true);
  });
});
