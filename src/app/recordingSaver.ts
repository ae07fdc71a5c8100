import { LibraryError, type LibraryClosed, type RunId, type RunLibrary } from '../store/runDatabase';
import type { AppStore } from '../store/store';
import type { UpdateMetrics } from '../rl/metrics';
import type { EncodedRun, TrainerApi } from '../worker/protocol';
import { WorkerFaultError } from '../worker/client';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** What the saver needs of the library (the real one, or a fake in tests). */
export type SaverLibrary = Pick<RunLibrary, 'summary' | 'putEncoded' | 'journal' | 'claim'>;

/** Updates are shown at the latest this long after they were handed to `keep`, kept or not (a stalled library does not freeze the curve). */
export const KEEP_WAIT_MS = 2_000;

/** Where the saver stores runs and how it tells the page. */
export interface SaverDeps {
  /** The store that shows the recording's entry and the library's messages. */
  store: AppStore;
  library: () => Promise<SaverLibrary>;
  /** Re-reads the library's list into the store. */
  refresh: () => Promise<void>;
  /** Called after every stored save with the entry's id (e.g. to remember the run for a reload). */
  stored?: (id: RunId, encoded: EncodedRun) => void;
  /** This page's token in the library (default: a new one): another page's saves never go over a run this one resumed. */
  writer?: string;
}

/**
 * The recording of the current training run. The worker records and encodes; this side stores the
 * encoded run in the library, one save at a time, always over the same library entry. The newest
 * encoding stays in memory (`latest`): it is what a crashed worker resumes from, and what "Export
 * this run" offers when the library is full.
 */
export class RecordingSaver {
  /** Bumped for every new run, so a save that finishes late does not claim the new run's entry. */
  private generation = 0;
  private chain: Promise<void> = Promise.resolve();
  /** The last encoding that could not be stored (kept so it can still be exported). */
  unsaved: EncodedRun | null = null;
  /** The newest encoding of the current run (run-file bytes), stored or not. */
  latest: Uint8Array | null = null;
  /** The user deleted this run's entry: do not bring it back by saving again. */
  private discarded = false;
  /** Library entry of each run (by generation), once its first save is stored. */
  private readonly entries = new Map<number, RunId>();
  /** The first save of the current run, asked for by `keep` (a run's entry exists once it lands). */
  private first: { generation: number; done: Promise<void> } | null = null;
  private readonly deps: SaverDeps;
  /** This page's token in the library's summaries (`RunSummary.writer`). */
  readonly writer: string;

  constructor(deps: SaverDeps) {
    this.deps = deps;
    this.writer = deps.writer ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  }

  /** A new run begins (reset, new settings, new worker): its recording gets its own entry. */
  begin(): void {
    this.generation++;
    this.discarded = false;
    this.unsaved = null;
    this.latest = null;
    this.deps.store.getState().setLibrary({ recordingId: null, savedAt: null });
  }

  /** The current run carries on a stored one (resumed after a reload): saves go over entry `id`. */
  adopt(id: RunId, bytes: Uint8Array | null): void {
    this.entries.set(this.generation, id);
    this.latest = bytes;
    this.deps.store.getState().setLibrary({ recordingId: id });
    // The entry is this page's from now on: a tab that trained it before saves its own version as a
    // new run. Not behind the saves in flight: one of them may be about to store this run over it.
    void this.deps
      .library()
      .then((lib) => lib.claim(id, this.writer))
      .catch(() => undefined);
  }

  /**
   * The library's database was deleted under the page (another tab, the browser's settings) or
   * lost: the entries it held are gone, so the run is saved again, as a new entry of the library
   * that opens next, at its next update; meanwhile it is kept in memory and can be exported.
   */
  libraryGone(why: LibraryClosed): void {
    this.entries.clear();
    this.first = null;
    this.deps.store.getState().setLibrary({
      recordingId: null,
      savedAt: null,
      libraryMessage: {
        kind: 'error',
        text:
          why === 'upgraded'
            ? 'A newer version of this app opened the run library in another tab, so this tab cannot save into it: the run being trained is kept in memory; use "Export this run" to keep it as a file, or reload this tab.'
            : `The run library was ${why === 'deleted' ? 'deleted (by another tab or the browser’s settings)' : 'closed by the browser'}: the runs it held are gone. The run being trained is kept in memory and saved again into a new library; use "Export this run" to keep it as a file.`,
      },
    });
  }

  /** Marks the current run's entry deleted (or, `false`, restored by undo). */
  setDiscarded(id: RunId, discarded: boolean): void {
    if (this.deps.store.getState().recordingId === id) this.discarded = discarded;
  }

  /**
   * Keeps the metrics of updates about to be shown (`rows`) in the library, and resolves once they
   * are (or could not be, or after KEEP_WAIT_MS): into the journal of the run's entry, or, before
   * the run has one, by saving the run (its first save) through `api`. Never rejects.
   */
  keep(api: TrainerApi | null, rows: UpdateMetrics[]): Promise<void> {
    const s = this.deps.store.getState();
    if (!api || !s.recording || this.discarded || !rows.length) return Promise.resolve();
    const generation = this.generation;
    const id = this.entries.get(generation);
    let kept: Promise<void>;
    if (id !== undefined) {
      kept = this.deps
        .library()
        .then((lib) => lib.journal(id, rows))
        .catch((e: unknown) => {
          if (generation !== this.generation) return;
          const quota = e instanceof LibraryError && e.code === 'quota';
          const text = quota
            ? `The library is full: ${message(e)} This run is kept in memory and training goes on; use "Export this run" to keep it as a file.`
            : `${message(e)} This run is kept in memory; use "Export this run" to keep it as a file.`;
          this.deps.store.getState().setLibrary({ libraryMessage: { kind: 'error', text } });
        });
    } else {
      // No entry yet: the run's first save makes it, holding every update recorded so far (these included).
      if (this.first?.generation !== generation) this.first = { generation, done: this.save(api) };
      kept = this.first.done;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((r) => (timer = setTimeout(r, KEEP_WAIT_MS)));
    return Promise.race([kept, late]).finally(() => clearTimeout(timer));
  }

  /** Resolves when every save asked for so far has finished (stored or failed). */
  settled(): Promise<void> {
    return this.chain;
  }

  /**
   * Saves the run recorded so far. The worker is asked for the recording at once, so a reset sent
   * right after is recorded after it; storing waits behind any save in flight. A dead worker's
   * recording rejects at once (the session reports the fault), so the queue never waits on it.
   */
  save(api: TrainerApi | null): Promise<void> {
    const s = this.deps.store.getState();
    if (!api || !s.recording || this.discarded) return this.chain;
    const generation = this.generation;
    const entry = this.entries.get(generation);
    const known = entry === undefined ? undefined : s.runs?.find((r) => r.id === entry)?.name;
    const encoding = api.recording(known);
    encoding.catch(() => undefined);
    const store = async () => {
      let encoded: EncodedRun | null = null;
      try {
        encoded = await encoding;
        if (!encoded) return;
        if (generation === this.generation) this.latest = encoded.bytes;
        this.unsaved = encoded;
        const lib = await this.deps.library();
        // Saves of one run are stored one after another, so each finds the entry the first one made.
        const id = this.entries.get(generation);
        const target = id !== undefined && (await lib.summary(id)) ? id : null;
        const summary = await lib.putEncoded(target, encoded.bytes, encoded.facts, this.writer);
        this.unsaved = null;
        if (target !== null && summary.id !== target && generation === this.generation)
          this.deps.store.getState().setLibrary({
            libraryMessage: { kind: 'info', text: `Another tab carries this run on from the library, so this tab's version is saved as a run of its own.` },
          });
        this.entries.set(generation, summary.id);
        if (generation === this.generation) {
          this.deps.store.getState().setLibrary({ recordingId: summary.id, savedAt: Date.now() });
          this.deps.stored?.(summary.id, encoded);
        }
        await this.deps.refresh();
      } catch (e) {
        if (e instanceof WorkerFaultError) return;
        const quota = e instanceof LibraryError && e.code === 'quota';
        const text = quota
          ? `The library is full: ${message(e)} This run is kept in memory and training goes on; use "Export this run" to keep it as a file.`
          : `${message(e)}${this.unsaved ? ' Use "Export this run" to keep it as a file.' : ''}`;
        this.deps.store.getState().setLibrary({ libraryMessage: { kind: 'error', text } });
      }
    };
    this.chain = this.chain.then(store, store);
    return this.chain;
  }
}
