/**
 * A training child's progress for the process that started it: a sweep worker starts its training
 * child with an IPC channel and `SWEEP_PROGRESS_IPC=1`, and turns these messages into the run's
 * BullMQ job progress. Without both (a `--jobs` child, a run from the command line, a test runner's
 * own channel) nothing is sent. The channel does not keep the child alive once its work is done.
 */
const enabled = process.env.SWEEP_PROGRESS_IPC === '1' && typeof process.send === 'function';
if (enabled) process.channel?.unref();

/** Sends `{ kind: 'progress', update, updates }` to the sweep worker that started this process, if one did. */
export function reportProgress(update: number, updates: number): void {
  if (enabled && process.connected) process.send!({ kind: 'progress', update, updates });
}
