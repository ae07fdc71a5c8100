/**
 * The run library: recorded runs kept in the browser's IndexedDB (through `idb`). Each run is two
 * records with one id: a small summary for the list, and the run file itself (the same gzip bytes
 * an export writes). `list` reads only the summaries. Every change is one transaction over both,
 * so a failure (a full disk included) leaves the library as it was. Stored run files are read (and
 * packed again for a rename) by a RunCodec: on the page, in a worker, so a large run never holds the
 * page's thread.
 *
 * Beside them, a journal: the metrics of each update the page shows, written as they arrive (a few
 * rows at a time, before the curve draws them), so a reload or a closed tab that cuts a save short
 * loses none of them. A save clears the rows its file holds; `open` folds the rows a closed page
 * left into their runs' files.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { blankRunName, cleanRunName, decodeRunFile, encodeRunFile, runFacts as summaryOf, suggestedFileName, type RunFacts } from '../core/runFile';
import type { RunFile } from '../core/runFormat';
import type { UpdateMetrics } from '../rl/metrics';
import { directCodec, type OpenOptions, type RunCodec } from '../worker/runCodec';

/** Key of a run in the library. */
export type RunId = number;

/** What the library list shows about a run, read without loading the run. */
export interface RunSummary extends RunFacts {
  id: RunId;
  /**
   * The page (a token per page load) that records this run: the one that saved it first or resumed
   * it last. Another page's saves do not go over it (they become a new run), so two tabs that carry
   * on one run keep both versions.
   */
  writer?: string;
}

/** Everything needed to undo a `remove`: pass it to `restore`. */
export interface DeletedRun {
  summary: RunSummary;
  bytes: Uint8Array;
}

/** The outcome of importing a file; `error` is fit to show to the user. */
export type ImportResult = { ok: true; id: RunId; summary: RunSummary } | { ok: false; error: string };

/**
 * Why a library operation failed: `quota` (browser storage full), `not-found`, `invalid` (not a
 * valid run or name), `corrupt` (a stored run can no longer be read), `storage` (any other
 * IndexedDB failure), `cancelled` (reading a run was stopped by its caller).
 */
export type LibraryErrorCode = 'quota' | 'not-found' | 'invalid' | 'corrupt' | 'storage' | 'cancelled';

/** A failed library operation; `message` is fit to show to the user. The library is unchanged. */
export class LibraryError extends Error {
  readonly code: LibraryErrorCode;

  constructor(code: LibraryErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LibraryError';
    this.code = code;
  }
}

/** The IndexedDB database the app uses. */
export const LIBRARY_DB_NAME = 'swarm-playground-runs';
/** Version 2 added the journal of shown updates. */
const DB_VERSION = 2;

interface StoredFile {
  id: RunId;
  bytes: Uint8Array;
}

/** One shown update of run `id`, not yet in its stored file (or already, until a save clears it). */
interface JournalRow {
  id: RunId;
  update: number;
  metrics: UpdateMetrics;
}

interface LibrarySchema extends DBSchema {
  summaries: { key: RunId; value: RunSummary };
  files: { key: RunId; value: StoredFile };
  journal: { key: [RunId, number]; value: JournalRow };
}

const STORES = ['summaries', 'files', 'journal'] as const;
type WriteTx = IDBPTransaction<LibrarySchema, ('summaries' | 'files' | 'journal')[], 'readwrite'>;

/** The journal rows of run `id` numbered below `below` (all of them without it). */
const journalOf = (id: RunId, below = Infinity) => IDBKeyRange.bound([id, -Infinity], [id, below], false, true);

function isQuotaError(e: unknown): boolean {
  return e instanceof DOMException ? e.name === 'QuotaExceededError' : !!e && typeof e === 'object' && (e as { name?: unknown }).name === 'QuotaExceededError';
}

/** Tries of a rename whose run is saved again while its file is packed under the new name. */
const MAX_RENAME_ATTEMPTS = 3;

function corrupt(id: RunId, why: string): LibraryError {
  return new LibraryError('corrupt', `The stored run ${id} cannot be read. ${why}`);
}

/** Whether two stored files hold the same bytes (compared four at a time where both are aligned). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const n = a.length >> 2;
    const wa = new Uint32Array(a.buffer, a.byteOffset, n);
    const wb = new Uint32Array(b.buffer, b.byteOffset, n);
    for (; i < n; i++) if (wa[i] !== wb[i]) return false;
    i = n << 2;
  }
  for (; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Why the library's connection closed under it: the database was `deleted` or `upgraded` (a newer build) elsewhere, or the browser `lost` it. */
export type LibraryClosed = 'deleted' | 'upgraded' | 'lost';

/** Told when the library's connection closes under it. */
export interface LibraryEvents {
  closed?: (why: LibraryClosed) => void;
}

/** The run library. Open it with `RunLibrary.open()`; every method is safe to call concurrently. */
export class RunLibrary {
  private readonly db: IDBPDatabase<LibrarySchema>;
  private readonly codec: RunCodec;

  private constructor(db: IDBPDatabase<LibrarySchema>, codec: RunCodec) {
    this.db = db;
    this.codec = codec;
  }

  /**
   * Opens (creating on first use) the library database `name`. `codec` reads stored run files: the
   * page passes the run-file worker's; the default reads them on the calling thread (tests, Node).
   */
  static async open(name: string = LIBRARY_DB_NAME, codec: RunCodec = directCodec, events: LibraryEvents = {}): Promise<RunLibrary> {
    let lib: RunLibrary;
    try {
      const db = await openDB<LibrarySchema>(name, DB_VERSION, {
        upgrade(db, oldVersion) {
          if (oldVersion < 1) {
            db.createObjectStore('summaries', { keyPath: 'id', autoIncrement: true });
            db.createObjectStore('files', { keyPath: 'id' });
          }
          if (oldVersion < 2) db.createObjectStore('journal', { keyPath: ['id', 'update'] });
        },
        // Another tab, or the page itself, deletes or upgrades the database: let it, and say so.
        blocking(_version, next) {
          lib?.close();
          events.closed?.(next === null ? 'deleted' : 'upgraded');
        },
        terminated() {
          events.closed?.('lost');
        },
      });
      lib = new RunLibrary(db, codec);
    } catch (e) {
      throw new LibraryError('storage', `The run library cannot be opened: ${(e as Error)?.message ?? String(e)}`, { cause: e });
    }
    await lib.foldJournal().catch(() => undefined);
    return lib;
  }

  /**
   * Writes the metrics of shown updates of run `id` into the journal (one transaction), so they
   * are kept even if the page closes before the next save of the run's file lands.
   */
  async journal(id: RunId, rows: UpdateMetrics[]): Promise<void> {
    if (!rows.length) return;
    try {
      const tx = this.db.transaction('journal', 'readwrite');
      for (const m of rows) void tx.store.put({ id, update: m.update, metrics: m });
      await tx.done;
    } catch (e) {
      if (isQuotaError(e)) throw new LibraryError('quota', 'Browser storage is full: the updates shown could not be kept.', { cause: e });
      throw new LibraryError('storage', `Could not keep the updates shown: ${(e as Error)?.message ?? String(e)}`, { cause: e });
    }
  }

  /** How many journal rows run `id` has (tests). */
  async journalRows(id: RunId): Promise<number> {
    return this.db.count('journal', journalOf(id));
  }

  /**
   * Folds the journal into the stored runs: each run's rows that follow its file's last update
   * (in order, without a gap) are added to its metrics, and the file is stored again; then its rows
   * go. Rows of runs no longer in the library go too. Returns the ids of the runs that grew.
   */
  async foldJournal(): Promise<RunId[]> {
    const keys = await this.db.getAllKeys('journal');
    const ids = [...new Set(keys.map(([id]) => id))];
    const grew: RunId[] = [];
    for (const id of ids) {
      const [file, rows] = await Promise.all([this.db.get('files', id), this.db.getAll('journal', journalOf(id))]);
      if (!file) {
        await this.db.delete('journal', journalOf(id));
        continue;
      }
      const r = await this.codec.open(file.bytes.slice());
      if (!r.ok) continue;
      const run = r.run;
      let next = (run.metrics[run.metrics.length - 1]?.update ?? -1) + 1;
      const added: UpdateMetrics[] = [];
      for (const row of rows.sort((a, b) => a.update - b.update)) {
        if (row.update < next) continue;
        if (row.update > next) break;
        added.push(row.metrics);
        next++;
      }
      const last = next;
      if (!added.length) {
        await this.db.delete('journal', journalOf(id, last));
        continue;
      }
      const longer: RunFile = { ...run, metrics: [...run.metrics, ...added] };
      const bytes = encodeRunFile(longer);
      const folded = await this.write(
        'keep the updates shown',
        async (tx) => {
          const [summary, stored] = await Promise.all([tx.objectStore('summaries').get(id), tx.objectStore('files').get(id)]);
          // Saved again meanwhile (another tab trains it): that newer file stands.
          if (!summary || !stored || !sameBytes(stored.bytes, file.bytes)) return false;
          await tx.objectStore('files').put({ id, bytes });
          await tx.objectStore('summaries').put({ ...summaryOf(longer, bytes.length), id, name: summary.name });
          await tx.objectStore('journal').delete(journalOf(id, last));
          return true;
        },
        bytes.length,
      );
      if (folded) grew.push(id);
    }
    return grew;
  }

  /** Every run's summary, newest first. Reads no run files. */
  async list(): Promise<RunSummary[]> {
    const all = await this.db.getAll('summaries');
    return all.sort((a, b) => (a.created === b.created ? b.id - a.id : a.created < b.created ? 1 : -1));
  }

  /** One run's summary, or undefined. */
  async summary(id: RunId): Promise<RunSummary | undefined> {
    return this.db.get('summaries', id);
  }

  /**
   * The full run, read and checked by the codec (`options`: its progress, and a signal to stop it),
   * or undefined if there is none with this id. Throws a LibraryError if it cannot be read or was stopped.
   */
  async get(id: RunId, options?: OpenOptions): Promise<RunFile | undefined> {
    const file = await this.db.get('files', id);
    if (!file) return undefined;
    const r = await this.codec.open(file.bytes, options);
    if (!r.ok) throw r.cancelled ? new LibraryError('cancelled', r.error) : corrupt(id, r.error);
    return r.run;
  }

  /** Adds a run (validated and compressed first) and returns its new id. */
  async save(run: RunFile): Promise<RunId> {
    return (await this.add(run)).id;
  }

  /**
   * Replaces the stored run `id` with a newer state of the same run (the app saves the run it is
   * recording this way) and returns its summary. A name changed in the library meanwhile is kept.
   */
  async replace(id: RunId, run: RunFile): Promise<RunSummary> {
    let bytes: Uint8Array;
    const existing = await this.db.get('summaries', id);
    if (!existing) throw new LibraryError('not-found', `There is no run ${id} in the library.`);
    const named = { ...run, name: existing.name };
    try {
      bytes = encodeRunFile(named);
    } catch (e) {
      throw new LibraryError('invalid', (e as Error).message, { cause: e });
    }
    const next: RunSummary = { ...summaryOf(named, bytes.length), id };
    return this.write(
      'save the run',
      async (tx) => {
        if (!(await tx.objectStore('summaries').get(id))) throw new LibraryError('not-found', `There is no run ${id} in the library.`);
        await tx.objectStore('files').put({ id, bytes });
        await tx.objectStore('summaries').put(next);
        return next;
      },
      bytes.length,
    );
  }

  /**
   * Stores a run that was encoded elsewhere (the training worker records and compresses the run it
   * trains, off the page's thread): as a new run when `id` is null, else over run `id`, keeping a
   * name given in the library. The bytes are trusted to be a valid run file with these facts.
   */
  async putEncoded(id: RunId | null, bytes: Uint8Array, facts: RunFacts, writer?: string): Promise<RunSummary> {
    const mark = writer === undefined ? {} : { writer };
    const add = async (tx: WriteTx) => {
      const newId = await tx.objectStore('summaries').add({ ...facts, ...mark } as RunSummary);
      await tx.objectStore('files').put({ id: newId, bytes });
      await tx.objectStore('journal').delete(journalOf(newId));
      return { ...facts, ...mark, id: newId };
    };
    if (id === null) return this.write('save the run', add, bytes.length);
    return this.write(
      'save the run',
      async (tx) => {
        const existing = await tx.objectStore('summaries').get(id);
        if (!existing) throw new LibraryError('not-found', `There is no run ${id} in the library.`);
        // Another page carries this run on now: this page's version becomes a run of its own.
        if (writer !== undefined && existing.writer !== undefined && existing.writer !== writer) return add(tx);
        const next: RunSummary = { ...facts, id, name: existing.name, ...(writer === undefined ? (existing.writer ? { writer: existing.writer } : {}) : mark) };
        await tx.objectStore('files').put({ id, bytes });
        await tx.objectStore('summaries').put(next);
        // The file holds at least its first `updates` updates (numbered from 0 or later).
        await tx.objectStore('journal').delete(journalOf(id, facts.updates));
        return next;
      },
      bytes.length,
    );
  }

  /** Page `writer` carries run `id` on (it resumed it): from now on, other pages' saves of it become new runs. */
  async claim(id: RunId, writer: string): Promise<void> {
    await this.write('claim the run', async (tx) => {
      const summary = await tx.objectStore('summaries').get(id);
      if (summary) await tx.objectStore('summaries').put({ ...summary, writer });
    });
  }

  /**
   * Changes a run's name (plain text; trimmed and cut to MAX_NAME_LENGTH) in its summary and in its
   * file, and returns its summary. The file is packed again by the codec (off the page's thread) and
   * stored only if the run was not saved meanwhile (a run being recorded is saved every few seconds);
   * if it was, the newer file is renamed instead, so no save is lost.
   */
  async rename(id: RunId, name: string): Promise<RunSummary> {
    if (blankRunName(name)) throw new LibraryError('invalid', 'A run name cannot be empty: the run keeps its name.');
    const clean = cleanRunName(name);
    for (let attempt = 1; ; attempt++) {
      const tx = this.db.transaction(['summaries', 'files'], 'readonly');
      const [summary, file] = await Promise.all([tx.objectStore('summaries').get(id), tx.objectStore('files').get(id)]);
      await tx.done;
      if (!summary || !file) throw new LibraryError('not-found', `There is no run ${id} in the library.`);
      const r = await this.codec.rename(file.bytes, clean);
      if (!r.ok) throw corrupt(id, r.error);
      const renamed = await this.write(
        'rename the run',
        async (tx) => {
          const [now, stored] = await Promise.all([tx.objectStore('summaries').get(id), tx.objectStore('files').get(id)]);
          if (!now || !stored) throw new LibraryError('not-found', `There is no run ${id} in the library.`);
          if (!sameBytes(stored.bytes, file.bytes)) return null;
          const next: RunSummary = { ...now, name: clean, bytes: r.bytes.length };
          await tx.objectStore('files').put({ id, bytes: r.bytes });
          await tx.objectStore('summaries').put(next);
          return next;
        },
        r.bytes.length,
      );
      if (renamed) return renamed;
      if (attempt === MAX_RENAME_ATTEMPTS)
        throw new LibraryError(
          'storage',
          `Could not rename the run: it was saved ${attempt} times while it was being renamed. Try again when it is paused; the library is unchanged.`,
        );
    }
  }

  /** Deletes a run; the returned token undoes it with `restore`. */
  async remove(id: RunId): Promise<DeletedRun> {
    return this.write('delete the run', async (tx) => {
      const [summary, file] = await Promise.all([tx.objectStore('summaries').get(id), tx.objectStore('files').get(id)]);
      if (!summary || !file) throw new LibraryError('not-found', `There is no run ${id} in the library.`);
      await Promise.all([tx.objectStore('summaries').delete(id), tx.objectStore('files').delete(id), tx.objectStore('journal').delete(journalOf(id))]);
      return { summary, bytes: file.bytes };
    });
  }

  /** Puts a deleted run back under its old id (undo of `remove`). */
  async restore(deleted: DeletedRun): Promise<void> {
    const { summary, bytes } = deleted;
    await this.write(
      'restore the run',
      async (tx) => {
        await tx.objectStore('files').put({ id: summary.id, bytes });
        await tx.objectStore('summaries').put(summary);
      },
      bytes.length,
    );
  }

  /**
   * Adds a run file's bytes (gzip or plain JSON) to the library. On any failure (not a valid run
   * file, storage full) the library is unchanged and `error` says why.
   */
  async importFile(bytes: Uint8Array): Promise<ImportResult> {
    const r = decodeRunFile(bytes);
    if (!r.ok) return { ok: false, error: r.error };
    try {
      const summary = await this.add(r.run);
      return { ok: true, id: summary.id, summary };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** A run's file (gzip-compressed JSON) and a suggested file name for saving it. */
  async exportRun(id: RunId): Promise<{ bytes: Uint8Array; filename: string }> {
    const tx = this.db.transaction(['summaries', 'files'], 'readonly');
    const [summary, file] = await Promise.all([tx.objectStore('summaries').get(id), tx.objectStore('files').get(id)]);
    await tx.done;
    if (!summary || !file) throw new LibraryError('not-found', `There is no run ${id} in the library.`);
    return { bytes: file.bytes, filename: suggestedFileName(summary) };
  }

  /** Closes the database connection. */
  close(): void {
    this.db.close();
  }

  private async add(run: RunFile): Promise<RunSummary> {
    let bytes: Uint8Array;
    try {
      bytes = encodeRunFile(run);
    } catch (e) {
      throw new LibraryError('invalid', (e as Error).message, { cause: e });
    }
    const base = summaryOf(run, bytes.length);
    return this.write(
      'save the run',
      async (tx) => {
        const id = await tx.objectStore('summaries').add(base as RunSummary);
        await tx.objectStore('files').put({ id, bytes });
        return { ...base, id };
      },
      bytes.length,
    );
  }

  /**
   * Runs `f` in one read-write transaction over both stores. Any error aborts the transaction, so
   * nothing of it lands; a full storage quota becomes a LibraryError with code `quota`.
   */
  private async write<T>(what: string, f: (tx: WriteTx) => Promise<T>, bytes = 0): Promise<T> {
    const tx = this.db.transaction([...STORES], 'readwrite');
    try {
      const out = await f(tx);
      await tx.done;
      return out;
    } catch (e) {
      try {
        tx.abort();
      } catch {
        // Already finished (it failed on commit): nothing to undo.
      }
      await tx.done.catch(() => undefined);
      if (e instanceof LibraryError) throw e;
      if (isQuotaError(e)) {
        const size = bytes ? ` (${sizeText(bytes)})` : '';
        throw new LibraryError(
          'quota',
          `Browser storage is full: could not ${what}${size}. Delete or export some runs to make room; the library is unchanged.`,
          { cause: e },
        );
      }
      throw new LibraryError('storage', `Could not ${what}: ${(e as Error)?.message ?? String(e)}`, { cause: e });
    }
  }
}
