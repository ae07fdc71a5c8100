import type { AppStore, JobProgress } from './store';

/** The run-file jobs whose progress the library panel shows: an import, and a run being opened. */
export type ProgressSlot = 'importing' | 'opening';

const STAGES: Record<string, string> = { unpack: 'unpacking', parse: 'reading', check: 'checking', pack: 'packing' };

/** The job in progress in each slot, to cancel it. */
const running: Partial<Record<ProgressSlot, AbortController>> = {};

/**
 * Runs a run-file job (read in a worker) with its progress in `store`'s `slot` (`name`, the stage
 * in words and the share of it done) until it ends; `cancelJob(slot)` stops it through its signal.
 */
export async function withProgress<T>(
  store: AppStore,
  slot: ProgressSlot,
  name: string,
  job: (onProgress: (stage: string, done: number) => void, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const set = (p: JobProgress | null) => store.getState().setLibrary({ [slot]: p });
  const controller = new AbortController();
  running[slot] = controller;
  set({ name, stage: 'reading', done: 0 });
  try {
    return await job((stage, done) => {
      if (running[slot] === controller) set({ name, stage: STAGES[stage] ?? stage, done });
    }, controller.signal);
  } finally {
    if (running[slot] === controller) {
      delete running[slot];
      set(null);
    }
  }
}

/** Stops the job in progress in `slot`, if any: its worker ends at once and nothing changes. */
export function cancelJob(slot: ProgressSlot): void {
  running[slot]?.abort();
}
