import { lastCheckpoint } from '../core/recorder';
import { MAX_COMPRESSED_BYTES } from '../core/runFile';
import type { PretrainedFamily } from '../core/pretrained';
import type { RunFile } from '../core/runFormat';
import type { RunId, RunLibrary } from '../store/runDatabase';
import { cancelJob, withProgress } from '../store/progress';
import type { AppStore } from '../store/store';
import type { EncodedRun } from '../worker/protocol';
import type { OpenOptions, RunCodec } from '../worker/runCodec';
import { RecordingSaver } from './recordingSaver';
import { importThroughWorker } from './runImport';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const sizeMb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Offers `bytes` as a file download. */
export function download(bytes: Uint8Array | Blob, filename: string, type = 'application/gzip'): void {
  const blob = bytes instanceof Blob ? bytes : new Blob([bytes as Uint8Array<ArrayBuffer>], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Where the page remembers the run being trained, so a reload can offer to resume it. */
export const ACTIVE_RUN_KEY = 'swarm-playground.active-run';

/** The library entry of the run trained when the page was last closed or reloaded, if any. */
export function activeRunId(): RunId | null {
  try {
    const v = Number(globalThis.localStorage?.getItem(ACTIVE_RUN_KEY));
    return Number.isInteger(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

/** Remembers (or with null forgets) the library entry of the run being trained. */
export function setActiveRunId(id: RunId | null): void {
  try {
    if (id === null) globalThis.localStorage?.removeItem(ACTIVE_RUN_KEY);
    else globalThis.localStorage?.setItem(ACTIVE_RUN_KEY, String(id));
  } catch {
    // Storage blocked (private mode): a reload then offers nothing to resume; the library still has the run.
  }
}

function fileNameFor(name: string, created: string): string {
  const stem =
    name
      .replace(/[^a-zA-Z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'run';
  return `${stem}-${created.slice(0, 10)}.swarmrun.json.gz`;
}

/** What the run library's controller is built from. */
export interface RunLibraryDeps {
  /** Opens the library (once; the page's reads stored runs in the run-file worker). */
  library: () => Promise<RunLibrary>;
  /** Reads shipped run files (the pretrained swarms): the page's run-file worker. */
  codec: Pick<RunCodec, 'open'>;
  /** Where the shipped files are served from (the page's base URL). */
  base: string;
  /** Called after every stored save of the recording with its entry (the page remembers it for a reload). */
  stored?: (id: RunId) => void;
}

/**
 * The run library's actions as the views call them (list, rename, delete and undo, export, import,
 * replay, keep, the pretrained swarms, the run a curve is compared with), and the recording saver of
 * the run being trained, all on the store it is handed: outcomes show in its `libraryMessage`.
 */
export class RunLibraryController {
  readonly saver: RecordingSaver;
  private readonly store: AppStore;
  private readonly library: () => Promise<RunLibrary>;
  private readonly codec: Pick<RunCodec, 'open'>;
  private readonly base: string;

  constructor(store: AppStore, deps: RunLibraryDeps) {
    this.store = store;
    this.library = deps.library;
    this.codec = deps.codec;
    this.base = deps.base;
    this.saver = new RecordingSaver({ store, library: deps.library, refresh: () => this.refreshRuns(), stored: (id) => deps.stored?.(id) });
  }

  private report(kind: 'error' | 'info', text: string): void {
    this.store.getState().setLibrary({ libraryMessage: { kind, text } });
  }

  /** Reads the library's list into the store; a failure becomes a message (the list stays as it was). */
  readonly refreshRuns = async (): Promise<void> => {
    try {
      const runs = await (await this.library()).list();
      this.store.getState().setLibrary({ runs });
    } catch (e) {
      this.report('error', `The run library cannot be read: ${message(e)}`);
    }
  };

  /** Draws a stored run's curve over the live one (or, with null, clears it). */
  readonly compareWith = async (id: RunId | null): Promise<void> => {
    if (id === null) {
      this.store.getState().setOverlay(null);
      return;
    }
    try {
      const run = await (await this.library()).get(id);
      if (!run) throw new Error(`There is no run ${id} in the library.`);
      this.store.getState().setOverlay({ id, name: run.name, metrics: run.metrics });
    } catch (e) {
      this.store.getState().setLibrary({ libraryMessage: { kind: 'error', text: `The run to compare with could not be read: ${message(e)}` } });
    }
  };

  /** Downloads the run being trained as a file (`current` encodes it; works when the library is full). */
  readonly exportCurrentRun = async (current: () => Promise<EncodedRun | null>): Promise<void> => {
    try {
      const encoded = await current();
      if (!encoded) {
        this.report('info', 'Nothing recorded yet: train at least one update (with recording on).');
        return;
      }
      download(encoded.bytes, fileNameFor(encoded.facts.name, encoded.facts.created));
    } catch (e) {
      this.report('error', `The run could not be exported: ${message(e)}`);
    }
  };

  /** Renames a stored run (plain text). */
  readonly renameRun = async (id: RunId, name: string): Promise<void> => {
    try {
      await (await this.library()).rename(id, name);
      await this.refreshRuns();
    } catch (e) {
      this.report('error', message(e));
    }
  };

  /** Deletes a stored run, offering undo. */
  readonly deleteRun = async (id: RunId): Promise<void> => {
    try {
      const deleted = await (await this.library()).remove(id);
      this.saver.setDiscarded(id, true);
      this.store.getState().setLibrary({ undo: deleted, libraryMessage: { kind: 'info', text: `Deleted "${deleted.summary.name}".` } });
      await this.refreshRuns();
    } catch (e) {
      this.report('error', message(e));
    }
  };

  /** Puts the last deleted run back. */
  readonly undoDelete = async (): Promise<void> => {
    const deleted = this.store.getState().undo;
    if (!deleted) return;
    try {
      await (await this.library()).restore(deleted);
      this.saver.setDiscarded(deleted.summary.id, false);
      this.store.getState().setLibrary({ undo: null, libraryMessage: { kind: 'info', text: `Restored "${deleted.summary.name}".` } });
      await this.refreshRuns();
    } catch (e) {
      this.report('error', message(e));
    }
  };

  /** Downloads a stored run as a compressed run file. */
  readonly exportRun = async (id: RunId): Promise<void> => {
    try {
      const { bytes, filename } = await (await this.library()).exportRun(id);
      download(bytes, filename);
    } catch (e) {
      this.report('error', message(e));
    }
  };

  /**
   * Adds run files to the library. Each file is checked (size first, then format); a bad one is
   * reported by name and changes nothing.
   */
  readonly importFiles = async (files: readonly File[]): Promise<void> => {
    const lines: string[] = [];
    let ok = 0;
    for (const f of files) {
      if (f.size > MAX_COMPRESSED_BYTES) {
        lines.push(`"${f.name}" is ${sizeMb(f.size)}; run files may be at most ${sizeMb(MAX_COMPRESSED_BYTES)}.`);
        continue;
      }
      try {
        const r = await importThroughWorker(this.store, await this.library(), new Uint8Array(await f.arrayBuffer()), f.name);
        if (r.ok) ok++;
        else lines.push(`"${f.name}" was not imported: ${r.error}`);
      } catch (e) {
        lines.push(`"${f.name}" was not imported: ${message(e)}`);
      }
    }
    if (lines.length) this.report('error', lines.join('\n'));
    else this.report('info', `Imported ${ok} run${ok === 1 ? '' : 's'}.`);
    await this.refreshRuns();
  };

  /**
   * Reads a run in the run-file worker, with its progress in the store's `opening` (cancel with
   * `cancelOpen`), and shows it in replay mode. Opening another run stops this one; a stopped one
   * changes nothing. A failure is thrown. `wanted`: aborted when whoever asked no longer wants the
   * run (it is then neither read on nor shown).
   */
  private readonly openInReplay = async (
    name: string,
    read: (options: OpenOptions) => Promise<RunFile>,
    id: RunId | null,
    wanted?: AbortSignal,
  ): Promise<void> => {
    this.cancelOpen();
    if (wanted?.aborted) return;
    const run = await withProgress(this.store, 'opening', name, (onProgress, job) => {
      const signal = wanted ? AbortSignal.any([job, wanted]) : job;
      return read({ onProgress, signal }).catch((e: unknown) => (signal.aborted ? null : Promise.reject(e)));
    });
    if (run && !wanted?.aborted) this.store.getState().enterReplay(run, id);
  };

  /** Stops opening the run being opened, if any; what the page shows stays as it is. */
  readonly cancelOpen = (): void => {
    cancelJob('opening');
  };

  /** Opens a stored run in replay mode (read off the page's thread, with progress). */
  readonly replayRun = async (id: RunId): Promise<void> => {
    try {
      const lib = await this.library();
      const name = (await lib.summary(id))?.name ?? `run ${id}`;
      await this.openInReplay(
        name,
        async (options) => {
          const run = await lib.get(id, options);
          if (!run) throw new Error(`There is no run ${id} in the library.`);
          return run;
        },
        id,
      );
    } catch (e) {
      this.report('error', message(e));
    }
  };

  /** Stores a run that was opened from elsewhere (a pretrained swarm) in the library. */
  readonly keepRun = async (run: RunFile): Promise<void> => {
    try {
      const id = await (await this.library()).save(run);
      const s = this.store.getState();
      if (s.replay && s.replay.run === run) this.store.setState({ replay: { ...s.replay, id } });
      this.report('info', `Saved "${run.name}" in the library.`);
      await this.refreshRuns();
    } catch (e) {
      this.report('error', message(e));
    }
  };

  /**
   * Loads the shipped pretrained swarm of a task family into replay mode. `wanted`: aborted when the
   * run is no longer wanted (a lesson paged on while it loaded): nothing is shown or reported then.
   */
  readonly openPretrained = async (family: PretrainedFamily, wanted?: AbortSignal): Promise<void> => {
    try {
      const res = await fetch(`${this.base}pretrained/${family}.swarmrun.json.gz`, { signal: wanted });
      if (!res.ok) throw new Error(`the file is missing (${res.status})`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      await this.openInReplay(
        `the trained ${family} swarm`,
        async (options) => {
          const r = await this.codec.open(bytes, options);
          if (!r.ok) throw new Error(r.error);
          return r.run;
        },
        null,
        wanted,
      );
    } catch (e) {
      if (wanted?.aborted) return;
      this.report('error', `The trained ${family} swarm could not be loaded: ${message(e)}`);
    }
  };
}

/** Whether a run can be trained further (it holds weights). */
export function canContinue(run: RunFile): boolean {
  return lastCheckpoint(run) !== undefined;
}
