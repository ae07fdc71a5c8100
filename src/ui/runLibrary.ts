import { lastCheckpoint } from '../core/recorder';
import { decodeRunFile, MAX_COMPRESSED_BYTES, type RunFile } from '../core/runFile';
import { LibraryError, RunLibrary, type RunId } from '../store/library';
import { useApp } from '../store/store';
import type { EncodedRun, TrainerApi } from '../worker/protocol';
import { importThroughWorker } from './runImport';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const sizeMb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

let opened: Promise<RunLibrary> | null = null;

/** The page's run library (opened on first use). */
export function runLibrary(): Promise<RunLibrary> {
  opened ??= RunLibrary.open().catch((e: unknown) => {
    opened = null;
    throw e;
  });
  return opened;
}

function report(kind: 'error' | 'info', text: string): void {
  useApp.getState().setLibrary({ libraryMessage: { kind, text } });
}

/** Reads the library's list into the store; a failure becomes a message (the list stays as it was). */
export async function refreshRuns(): Promise<void> {
  try {
    const runs = await (await runLibrary()).list();
    useApp.getState().setLibrary({ runs });
  } catch (e) {
    report('error', `The run library cannot be read: ${message(e)}`);
  }
}

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

/**
 * The recording of the current training run. The worker records and encodes; this side stores the
 * encoded run in the library, one save at a time, always over the same library entry.
 */
class RecordingSaver {
  /** Bumped for every new run, so a save that finishes late does not claim the new run's entry. */
  private generation = 0;
  private chain: Promise<void> = Promise.resolve();
  /** The last encoding, kept when it could not be stored so it can still be exported. */
  unsaved: EncodedRun | null = null;
  /** The user deleted this run's entry: do not bring it back by saving again. */
  private discarded = false;
  /** Library entry of each run (by generation), once its first save is stored. */
  private readonly entries = new Map<number, RunId>();

  /** A new run begins (reset, new settings, new worker): its recording gets its own entry. */
  begin(): void {
    this.generation++;
    this.discarded = false;
    this.unsaved = null;
    useApp.getState().setLibrary({ recordingId: null, savedAt: null });
  }

  /** Marks the current run's entry deleted (or, `false`, restored by undo). */
  setDiscarded(id: RunId, discarded: boolean): void {
    if (useApp.getState().recordingId === id) this.discarded = discarded;
  }

  /**
   * Saves the run recorded so far. The worker is asked for the recording at once, so a reset sent
   * right after is recorded after it; storing waits behind any save in flight.
   */
  save(api: TrainerApi | null): Promise<void> {
    const s = useApp.getState();
    if (!api || !s.recording || this.discarded) return this.chain;
    const generation = this.generation;
    const entry = this.entries.get(generation);
    const known = entry === undefined ? undefined : s.runs?.find((r) => r.id === entry)?.name;
    const encoding = api.recording(known);
    const store = async () => {
      try {
        const encoded = await encoding;
        if (!encoded) return;
        this.unsaved = encoded;
        const lib = await runLibrary();
        // Saves of one run are stored one after another, so each finds the entry the first one made.
        const id = this.entries.get(generation);
        const target = id !== undefined && (await lib.summary(id)) ? id : null;
        const summary = await lib.putEncoded(target, encoded.bytes, encoded.facts);
        this.unsaved = null;
        this.entries.set(generation, summary.id);
        if (generation === this.generation) useApp.getState().setLibrary({ recordingId: summary.id, savedAt: Date.now() });
        await refreshRuns();
      } catch (e) {
        const quota = e instanceof LibraryError && e.code === 'quota';
        report('error', `${message(e)}${quota || this.unsaved ? ' Use "Export this run" to keep it as a file.' : ''}`);
      }
    };
    this.chain = this.chain.then(store, store);
    return this.chain;
  }
}

export const recordingSaver = new RecordingSaver();

/** Downloads the run being trained as a file (from the worker; works when the library is full). */
export async function exportCurrentRun(api: TrainerApi | null): Promise<void> {
  try {
    const encoded = recordingSaver.unsaved ?? (api ? await api.recording() : null);
    if (!encoded) {
      report('info', 'Nothing recorded yet: train at least one update (with recording on).');
      return;
    }
    download(encoded.bytes, fileNameFor(encoded.facts.name, encoded.facts.created));
  } catch (e) {
    report('error', `The run could not be exported: ${message(e)}`);
  }
}

function fileNameFor(name: string, created: string): string {
  const stem = name.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'run';
  return `${stem}-${created.slice(0, 10)}.swarmrun.json.gz`;
}

/** Renames a stored run (plain text). */
export async function renameRun(id: RunId, name: string): Promise<void> {
  try {
    await (await runLibrary()).rename(id, name);
    await refreshRuns();
  } catch (e) {
    report('error', message(e));
  }
}

/** Deletes a stored run, offering undo. */
export async function deleteRun(id: RunId): Promise<void> {
  try {
    const deleted = await (await runLibrary()).remove(id);
    recordingSaver.setDiscarded(id, true);
    useApp.getState().setLibrary({ undo: deleted, libraryMessage: { kind: 'info', text: `Deleted "${deleted.summary.name}".` } });
    await refreshRuns();
  } catch (e) {
    report('error', message(e));
  }
}

/** Puts the last deleted run back. */
export async function undoDelete(): Promise<void> {
  const deleted = useApp.getState().undo;
  if (!deleted) return;
  try {
    await (await runLibrary()).restore(deleted);
    recordingSaver.setDiscarded(deleted.summary.id, false);
    useApp.getState().setLibrary({ undo: null, libraryMessage: { kind: 'info', text: `Restored "${deleted.summary.name}".` } });
    await refreshRuns();
  } catch (e) {
    report('error', message(e));
  }
}

/** Downloads a stored run as a compressed run file. */
export async function exportRun(id: RunId): Promise<void> {
  try {
    const { bytes, filename } = await (await runLibrary()).exportRun(id);
    download(bytes, filename);
  } catch (e) {
    report('error', message(e));
  }
}

/**
 * Adds run files to the library. Each file is checked (size first, then format); a bad one is
 * reported by name and changes nothing.
 */
export async function importFiles(files: readonly File[]): Promise<void> {
  const lines: string[] = [];
  let ok = 0;
  for (const f of files) {
    if (f.size > MAX_COMPRESSED_BYTES) {
      lines.push(`"${f.name}" is ${sizeMb(f.size)}; run files may be at most ${sizeMb(MAX_COMPRESSED_BYTES)}.`);
      continue;
    }
    try {
      const r = await importThroughWorker(await runLibrary(), new Uint8Array(await f.arrayBuffer()), f.name);
      if (r.ok) ok++;
      else lines.push(`"${f.name}" was not imported: ${r.error}`);
    } catch (e) {
      lines.push(`"${f.name}" was not imported: ${message(e)}`);
    }
  }
  if (lines.length) report('error', lines.join('\n'));
  else report('info', `Imported ${ok} run${ok === 1 ? '' : 's'}.`);
  await refreshRuns();
}

/** Opens a stored run in replay mode. */
export async function replayRun(id: RunId): Promise<void> {
  try {
    const run = await (await runLibrary()).get(id);
    if (!run) throw new Error(`There is no run ${id} in the library.`);
    useApp.getState().enterReplay(run, id);
  } catch (e) {
    report('error', message(e));
  }
}

/** Stores a run that was opened from elsewhere (a pretrained swarm) in the library. */
export async function keepRun(run: RunFile): Promise<void> {
  try {
    const id = await (await runLibrary()).save(run);
    const s = useApp.getState();
    if (s.replay && s.replay.run === run) useApp.setState({ replay: { ...s.replay, id } });
    report('info', `Saved "${run.name}" in the library.`);
    await refreshRuns();
  } catch (e) {
    report('error', message(e));
  }
}

/** The task families with a pretrained swarm shipped in `public/pretrained/` (the default first). */
export const PRETRAINED = ['long-coupled', 'coupled', 'parallel', 'search', 'mixed'] as const;

/** Loads the shipped pretrained swarm of a task family into replay mode. */
export async function openPretrained(family: (typeof PRETRAINED)[number]): Promise<void> {
  try {
    const res = await fetch(`${import.meta.env.BASE_URL}pretrained/${family}.swarmrun.json.gz`);
    if (!res.ok) throw new Error(`the file is missing (${res.status})`);
    const r = decodeRunFile(new Uint8Array(await res.arrayBuffer()));
    if (!r.ok) throw new Error(r.error);
    useApp.getState().enterReplay(r.run, null);
  } catch (e) {
    report('error', `The trained ${family} swarm could not be loaded: ${message(e)}`);
  }
}

/** Whether a run can be trained further (it holds weights). */
export function canContinue(run: RunFile): boolean {
  return lastCheckpoint(run) !== undefined;
}
