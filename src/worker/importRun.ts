import { decodeRunFile, encodeRunFile, runFacts, type DecodeProgress, type RunFacts } from '../core/runFile';

/** A message from the run-file worker about an import: progress, then one outcome. */
export type ImportMessage =
  | { kind: 'progress'; stage: 'unpack' | 'parse' | 'check' | 'pack'; done: number }
  | { kind: 'done'; ok: true; bytes: Uint8Array; facts: RunFacts }
  | { kind: 'done'; ok: false; error: string };

/**
 * Reads a run file for the library: unpacks (stopping at the size limit), parses, checks shape and
 * meaning, and packs it again as the library stores it, under `name` when one is given (a rename).
 * Runs in the run-file worker, so none of this blocks the page; pure apart from the `post` callback.
 */
export function importRun(bytes: Uint8Array, post: (m: ImportMessage) => void, name?: string): void {
  const progress: DecodeProgress = (stage, done) => post({ kind: 'progress', stage, done });
  const r = decodeRunFile(bytes, undefined, progress);
  if (!r.ok) return post({ kind: 'done', ok: false, error: r.error });
  post({ kind: 'progress', stage: 'pack', done: 0 });
  try {
    const run = name === undefined ? r.run : { ...r.run, name };
    const packed = encodeRunFile(run);
    post({ kind: 'done', ok: true, bytes: packed, facts: runFacts(run, packed.length) });
  } catch (e) {
    post({ kind: 'done', ok: false, error: e instanceof Error ? e.message : String(e) });
  }
}
