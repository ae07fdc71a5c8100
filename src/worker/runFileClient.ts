import type { ImportMessage } from './importRun';
import type { OpenMessage } from './openRun';
import { cancelledOutcome, type OpenOptions, type OpenOutcome, type PackOutcome, type RunCodec } from './runCodec';
import type { RunFileJob, RunFileMessage } from './runFileJobs';
import { RunAssembler } from './runParts';

/** Progress of one import: the stage and the share of it done (0 to 1). */
export type ImportProgress = (stage: 'unpack' | 'parse' | 'check' | 'pack', done: number) => void;

/**
 * Runs one job in a run-file worker of its own. `hear` gets each message and may `finish` with the
 * outcome; `signal` stops the worker at once with the outcome `cancelled`, and a worker that fails
 * ends with `failed(why)`.
 */
function inWorker<T>(
  job: RunFileJob,
  transfer: ArrayBuffer[],
  signal: AbortSignal | undefined,
  ends: { cancelled: T; failed: (why: string) => T },
  hear: (m: RunFileMessage, finish: (outcome: T) => void) => void,
): Promise<T> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(ends.cancelled);
    const worker = new Worker(new URL('./runFile.worker.ts', import.meta.url), { type: 'module' });
    let done = false;
    const finish = (outcome: T) => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', abort);
      worker.terminate();
      resolve(outcome);
    };
    const abort = () => finish(ends.cancelled);
    signal?.addEventListener('abort', abort);
    worker.onmessage = (e: MessageEvent<RunFileMessage>) => hear(e.data, finish);
    worker.onmessageerror = () => finish(ends.failed('a message from its worker could not be read'));
    worker.onerror = (e) => finish(ends.failed(e.message));
    worker.postMessage(job, transfer);
  });
}

/** Hears an import job: its progress, then its packed run. */
function packed(onProgress?: ImportProgress) {
  return (message: RunFileMessage, finish: (outcome: PackOutcome) => void) => {
    const m = message as ImportMessage; // an import job posts nothing else
    if (m.kind === 'progress') onProgress?.(m.stage, m.done);
    else finish(m.ok ? { ok: true, bytes: m.bytes, facts: m.facts } : { ok: false, error: m.error });
  };
}

/**
 * Reads, checks and packs a run file in a worker of its own, so a large file or a gzip bomb never
 * blocks the page. `bytes` are moved to the worker. `signal` cancels: the worker is stopped at once
 * and the outcome says so.
 */
export function importInWorker(bytes: Uint8Array, onProgress?: ImportProgress, signal?: AbortSignal): Promise<PackOutcome> {
  const ends = {
    cancelled: cancelledOutcome('The import'),
    failed: (why: string) => ({ ok: false as const, error: `The file could not be read: ${why || 'the import worker failed'}.` }),
  };
  return inWorker<PackOutcome>({ kind: 'import', bytes }, [bytes.buffer as ArrayBuffer], signal, ends, packed(onProgress));
}

/** Packs a stored run file again under `name`, in a worker; `bytes` are copied to it and stay the caller's. */
export function renameInWorker(bytes: Uint8Array, name: string): Promise<PackOutcome> {
  const ends = {
    cancelled: cancelledOutcome('The rename'),
    failed: (why: string) => ({ ok: false as const, error: `The run could not be renamed: ${why || 'its worker failed'}.` }),
  };
  return inWorker<PackOutcome>({ kind: 'import', bytes, name }, [], undefined, ends, packed());
}

/**
 * Reads and checks a run file in a worker of its own and receives the run in pieces, so neither the
 * reading nor the copying holds the page's thread for long. `bytes` are moved to the worker.
 */
export function openInWorker(bytes: Uint8Array, options: OpenOptions = {}): Promise<OpenOutcome> {
  const ends = {
    cancelled: cancelledOutcome('Opening the run'),
    failed: (why: string) => ({ ok: false as const, error: `The run could not be read: ${why || 'its worker failed'}.` }),
  };
  const parts = new RunAssembler();
  return inWorker<OpenOutcome>({ kind: 'open', bytes }, [bytes.buffer as ArrayBuffer], options.signal, ends, (message, finish) => {
    const m = message as OpenMessage; // an open job posts nothing else
    if (m.kind === 'progress') options.onProgress?.(m.stage, m.done);
    else if (m.kind === 'part') parts.add(m.part);
    else if (!m.ok) finish({ ok: false, error: m.error });
    else {
      try {
        finish({ ok: true, run: parts.run() });
      } catch (e) {
        finish(ends.failed(e instanceof Error ? e.message : String(e)));
      }
    }
  });
}

/** The page's RunCodec: every run file is read and packed in a run-file worker. */
export const workerCodec: RunCodec = { open: openInWorker, rename: renameInWorker };
