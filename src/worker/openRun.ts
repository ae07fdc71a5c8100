import { decodeRunFile, type DecodeProgress } from '../core/runFile';
import { runParts, type RunPart } from './runParts';

/** A message from the run-file worker about a run being opened: progress, the run in pieces, then one outcome. */
export type OpenMessage =
  | { kind: 'progress'; stage: 'unpack' | 'parse' | 'check'; done: number }
  | { kind: 'part'; part: RunPart }
  | { kind: 'done'; ok: true }
  | { kind: 'done'; ok: false; error: string };

/**
 * Reads a run file to show it (a stored run to replay, a pretrained swarm): unpacks, parses, checks
 * shape and meaning, and posts the checked run in pieces (`runParts`), so that neither the reading
 * nor the copying to the page holds the page's thread for long. Pure apart from `post`.
 */
export function openRun(bytes: Uint8Array, post: (m: OpenMessage, transfer?: ArrayBuffer[]) => void): void {
  const progress: DecodeProgress = (stage, done) => post({ kind: 'progress', stage, done });
  const r = decodeRunFile(bytes, undefined, progress);
  if (!r.ok) return post({ kind: 'done', ok: false, error: r.error });
  for (const { part, transfer } of runParts(r.run)) post({ kind: 'part', part }, transfer);
  post({ kind: 'done', ok: true });
}
