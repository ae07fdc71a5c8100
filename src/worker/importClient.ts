import type { RunFacts } from '../core/runFile';
import type { ImportMessage } from './importRun';

/** The outcome of reading a run file in the import worker. */
export type ImportOutcome = { ok: true; bytes: Uint8Array; facts: RunFacts } | { ok: false; error: string; cancelled?: boolean };

/** Progress of one import: the stage and the share of it done (0 to 1). */
export type ImportProgress = (stage: 'unpack' | 'parse' | 'check' | 'pack', done: number) => void;

/**
 * Reads, checks and packs a run file in a worker of its own, so a large file or a gzip bomb never
 * blocks the page. `signal` cancels: the worker is stopped at once and the outcome says so.
 */
export function importInWorker(bytes: Uint8Array, onProgress?: ImportProgress, signal?: AbortSignal): Promise<ImportOutcome> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ ok: false, error: 'The import was cancelled.', cancelled: true });
    const worker = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module' });
    const finish = (outcome: ImportOutcome) => {
      signal?.removeEventListener('abort', abort);
      worker.terminate();
      resolve(outcome);
    };
    const abort = () => finish({ ok: false, error: 'The import was cancelled.', cancelled: true });
    signal?.addEventListener('abort', abort);
    worker.onmessage = (e: MessageEvent<ImportMessage>) => {
      const m = e.data;
      if (m.kind === 'progress') onProgress?.(m.stage, m.done);
      else finish(m.ok ? { ok: true, bytes: m.bytes, facts: m.facts } : { ok: false, error: m.error });
    };
    worker.onerror = (e) => finish({ ok: false, error: `The file could not be read: ${e.message || 'the import worker failed'}.` });
    worker.postMessage(bytes, [bytes.buffer as ArrayBuffer]);
  });
}
