import type { ImportResult, RunLibrary } from './library';
import { useApp } from './store';
import { importInWorker } from '../worker/importClient';

/** Cancels the import in progress, if any. */
let cancel: AbortController | null = null;

const STAGES: Record<string, string> = { unpack: 'unpacking', parse: 'reading', check: 'checking', pack: 'packing' };

/**
 * Imports one run file into `lib`: read, checked and packed in a worker (progress in the store's
 * `importing`, cancel with `cancelImport`), then stored as it is. The library is unchanged unless
 * the whole file was good.
 */
export async function importThroughWorker(lib: RunLibrary, bytes: Uint8Array, name: string): Promise<ImportResult> {
  const set = useApp.getState().setLibrary;
  const controller = new AbortController();
  cancel = controller;
  set({ importing: { name, stage: 'reading', done: 0 } });
  try {
    const r = await importInWorker(bytes, (stage, done) => set({ importing: { name, stage: STAGES[stage] ?? stage, done } }), controller.signal);
    if (!r.ok) return { ok: false, error: r.error };
    const summary = await lib.putEncoded(null, r.bytes, r.facts);
    return { ok: true, id: summary.id, summary };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    if (cancel === controller) cancel = null;
    set({ importing: null });
  }
}

/** Stops the import in progress: its worker ends at once and nothing is stored. */
export function cancelImport(): void {
  cancel?.abort();
}
