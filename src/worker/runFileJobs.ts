import { importRun, type ImportMessage } from './importRun';
import { openRun, type OpenMessage } from './openRun';

/**
 * A job for the run-file worker: `import` reads, checks and packs a file for the library (under
 * `name` when given: a rename); `open` reads and checks one to show it.
 */
export type RunFileJob = { kind: 'import'; bytes: Uint8Array; name?: string } | { kind: 'open'; bytes: Uint8Array };

/** What the run-file worker posts about a job. */
export type RunFileMessage = ImportMessage | OpenMessage;

/** Does one job, posting its messages with the buffers they move. Pure apart from `post`. */
export function runFileJob(job: RunFileJob, post: (m: RunFileMessage, transfer: ArrayBuffer[]) => void): void {
  if (job.kind === 'open') openRun(job.bytes, (m, transfer = []) => post(m, transfer));
  else importRun(job.bytes, (m) => post(m, m.kind === 'done' && m.ok ? [m.bytes.buffer as ArrayBuffer] : []), job.name);
}
