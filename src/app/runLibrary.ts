import { lastCheckpoint } from '../core/recorder';
import { MAX_COMPRESSED_BYTES, type RunFile } from '../core/runFile';
import { RunLibrary, type RunId } from '../store/library';
import { cancelJob, withProgress } from '../store/progress';
import { RecordingSaver } from './recordingSaver';
import { importThroughWorker } from './runImport';
import { useApp } from '../store/store';
import type { EncodedRun } from '../worker/protocol';
import type { OpenOptions } from '../worker/runCodec';
import { workerCodec } from '../worker/runFileClient';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const sizeMb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

let opened: Promise<RunLibrary> | null = null;

/** The page's run library (opened on first use); it reads stored runs in the run-file worker. */
export function runLibrary(): Promise<RunLibrary> {
  opened ??= RunLibrary.open(undefined, workerCodec).catch((e: unknown) => {
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

/** The page's recording saver: stores into the page's library and remembers the entry for a reload. */
export const recordingSaver = new RecordingSaver({ store: useApp, library: runLibrary, refresh: refreshRuns, stored: (id) => setActiveRunId(id) });

/** Downloads the run being trained as a file (`current` encodes it; works when the library is full). */
export async function exportCurrentRun(current: () => Promise<EncodedRun | null>): Promise<void> {
  try {
    const encoded = await current();
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

/**
 * Reads a run in the run-file worker, with its progress in the store's `opening` (cancel with
 * `cancelOpen`), and shows it in replay mode. Opening another run stops this one; a stopped one
 * changes nothing. A failure is thrown.
 */
async function openInReplay(name: string, read: (options: OpenOptions) => Promise<RunFile>, id: RunId | null): Promise<void> {
  cancelOpen();
  const run = await withProgress('opening', name, (onProgress, signal) => read({ onProgress, signal }).catch((e: unknown) => (signal.aborted ? null : Promise.reject(e))));
  if (run) useApp.getState().enterReplay(run, id);
}

/** Stops opening the run being opened, if any; what the page shows stays as it is. */
export function cancelOpen(): void {
  cancelJob('opening');
}

/** Opens a stored run in replay mode (read off the page's thread, with progress). */
export async function replayRun(id: RunId): Promise<void> {
  try {
    const lib = await runLibrary();
    const name = (await lib.summary(id))?.name ?? `run ${id}`;
    await openInReplay(
      name,
      async (options) => {
        const run = await lib.get(id, options);
        if (!run) throw new Error(`There is no run ${id} in the library.`);
        return run;
      },
      id,
    );
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
export const PRETRAINED = ['long-coupled', 'long-parallel', 'long-search', 'long-mixed', 'coupled', 'parallel', 'search', 'mixed'] as const;

/** Loads the shipped pretrained swarm of a task family into replay mode. */
export async function openPretrained(family: (typeof PRETRAINED)[number]): Promise<void> {
  try {
    const res = await fetch(`${import.meta.env.BASE_URL}pretrained/${family}.swarmrun.json.gz`);
    if (!res.ok) throw new Error(`the file is missing (${res.status})`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    await openInReplay(
      `the trained ${family} swarm`,
      async (options) => {
        const r = await workerCodec.open(bytes, options);
        if (!r.ok) throw new Error(r.error);
        return r.run;
      },
      null,
    );
  } catch (e) {
    report('error', `The trained ${family} swarm could not be loaded: ${message(e)}`);
  }
}

/** Whether a run can be trained further (it holds weights). */
export function canContinue(run: RunFile): boolean {
  return lastCheckpoint(run) !== undefined;
}
