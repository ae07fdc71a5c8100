import { createHash } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';

/**
 * The two pieces of the scripts' resumable output (the claims' cache and an experiment's finished
 * seeds): a record's key is a hash of everything that determines it, and a record is written
 * atomically, so a file that is there is whole and an interrupted write leaves nothing behind.
 */

/** A 16-hex-digit key of `what` (its JSON text): equal exactly when every field is equal, in the same order. */
export function cacheKey(what: unknown): string {
  return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 16);
}

/** Writes `text` to `path` through a temporary file beside it and a rename. */
export function writeAtomic(path: string, text: string | Uint8Array): void {
  writeFileSync(path + '.tmp', text);
  renameSync(path + '.tmp', path);
}
