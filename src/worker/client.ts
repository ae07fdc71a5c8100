import * as Comlink from 'comlink';
import type { TrainerApi } from './protocol';

/** A training worker and its typed Comlink handle. */
export interface TrainerClient {
  api: Comlink.Remote<TrainerApi>;
  /** Releases the handle and stops the worker at once (an update in flight is abandoned). */
  terminate(): void;
}

/** Starts a training worker (a module worker, bundled by Vite) and wraps it with Comlink. */
export function createTrainerClient(): TrainerClient {
  const worker = new Worker(new URL('./trainer.worker.ts', import.meta.url), { type: 'module' });
  const api = Comlink.wrap<TrainerApi>(worker);
  return {
    api,
    terminate() {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
