import { decodeRunFile, type DecodeProgress, type RunFacts } from '../core/runFile';
import type { RunFile } from '../core/runFormat';
import { importRun, type ImportMessage } from './importRun';

/** A run file packed as the library stores it, with its list facts; or why it could not be. */
export type PackOutcome = { ok: true; bytes: Uint8Array; facts: RunFacts } | { ok: false; error: string; cancelled?: boolean };

/** A checked run read from a run file; or why it could not be read. */
export type OpenOutcome = { ok: true; run: RunFile } | { ok: false; error: string; cancelled?: boolean };

/** How far a reading got (`onProgress`), and a way to stop it (`signal`). */
export interface OpenOptions {
  onProgress?: DecodeProgress;
  signal?: AbortSignal;
}

/**
 * Where the run library reads stored run files and packs them again. The page uses the run-file
 * worker (`workerCodec`), so that a large run never holds the page's thread; tests and Node use
 * `directCodec`, which does the same work on the calling thread.
 */
export interface RunCodec {
  /** Reads and checks a run file. `bytes` may be taken over (moved to a worker): do not use them afterwards. */
  open(bytes: Uint8Array, options?: OpenOptions): Promise<OpenOutcome>;
  /** Packs a run file again under the name `name` (already cleaned). `bytes` stay the caller's. */
  rename(bytes: Uint8Array, name: string): Promise<PackOutcome>;
}

/** The outcome of a job stopped by its signal. */
export const cancelledOutcome = (what: string) => ({ ok: false, error: `${what} was cancelled.`, cancelled: true }) as const;

/** A RunCodec on the calling thread (tests, Node). */
export const directCodec: RunCodec = {
  async open(bytes, options) {
    if (options?.signal?.aborted) return cancelledOutcome('Opening the run');
    const r = decodeRunFile(bytes, undefined, options?.onProgress);
    return r.ok ? { ok: true, run: r.run } : { ok: false, error: r.error };
  },
  async rename(bytes, name) {
    let outcome: PackOutcome = { ok: false, error: 'The run could not be packed.' };
    importRun(
      bytes,
      (m: ImportMessage) => {
        if (m.kind === 'done') outcome = m.ok ? { ok: true, bytes: m.bytes, facts: m.facts } : { ok: false, error: m.error };
      },
      name,
    );
    return outcome;
  },
};
