import type { ImportResult, RunLibrary } from '../store/runDatabase';
import { cancelJob, withProgress } from '../store/progress';
import type { AppStore } from '../store/store';
import { importInWorker } from '../worker/runFileClient';

/**
 * Imports one run file into `lib`: read, checked and packed in a worker (progress in `store`'s
 * `importing`, cancel with `cancelImport`), then stored as it is. The library is unchanged unless
 * the whole file was good.
 */
export async function importThroughWorker(store: AppStore, lib: RunLibrary, bytes: Uint8Array, name: string): Promise<ImportResult> {
  try {
    return await withProgress(store, 'importing', name, async (onProgress, signal): Promise<ImportResult> => {
      const r = await importInWorker(bytes, onProgress, signal);
      if (!r.ok) return { ok: false, error: r.error };
      const summary = await lib.putEncoded(null, r.bytes, r.facts);
      return { ok: true, id: summary.id, summary };
    });
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Stops the import in progress: its worker ends at once and nothing is stored. */
export function cancelImport(): void {
  cancelJob('importing');
}
