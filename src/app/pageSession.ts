import { createTrainerClient, DEFAULT_WATCHDOG, type InjectedFault, type WatchdogOptions } from '../worker/client';
import { threadsFromSearch } from '../worker/threads';
import type { WorkerMemory } from '../worker/protocol';
import { workerCodec } from '../worker/runFileClient';
import { pageLibrary, runs } from './page';
import { activeRunId } from './runLibrary';
import { TrainingSession } from './session';
import { trainingElsewhere, webTrainingLock } from './trainingLock';
import { keepHash, type AppStore } from '../store/store';

/**
 * Test hooks: `globalThis.__swarmFaults.inject(kind)` makes the current worker fail, `memory()`
 * reads its tensors; a
 * `globalThis.__swarmWatchdog` set before the app loads (e.g. by a Playwright init script) shortens
 * the watchdog, so a silently closed worker is noticed within a test's patience.
 */
export interface FaultHooks {
  inject(kind: InjectedFault): void;
  /** The current worker's tensors and memory (the soak benchmark reads them). */
  memory(): Promise<WorkerMemory | null>;
}

/**
 * Starts the page's training session on `store` (the page's): the URL hash kept in step with the settings, a worker watched for faults, autosave into the page's run
 * library every few seconds and when the page hides or closes, its actions installed in the store,
 * and an offer to resume the run that was being trained when the page was last closed. Returns a
 * function that stops it.
 */
export function openPageSession(store: AppStore): () => void {
  const threads = threadsFromSearch(location.search);
  // A bad ?threads= is named beside the hash's notices (the store read those when it was made).
  const { notice } = threads;
  if (notice) store.setState((s) => ({ notices: [...s.notices, notice] }));
  const watchdog: WatchdogOptions = { ...DEFAULT_WATCHDOG, ...(globalThis as { __swarmWatchdog?: Partial<WatchdogOptions> }).__swarmWatchdog };
  const session = new TrainingSession({
    store,
    createClient: () => createTrainerClient({ ...watchdog }),
    threads: threads.threads,
    saver: runs.saver,
    refreshRuns: runs.refreshRuns,
    storedRun: async (id) => (await (await pageLibrary()).exportRun(id)).bytes,
    codec: workerCodec,
    lock: webTrainingLock(),
    page: {
      addEventListener: (type, f) => (type === 'pagehide' ? window : document).addEventListener(type, f),
      removeEventListener: (type, f) => (type === 'pagehide' ? window : document).removeEventListener(type, f),
      hidden: () => document.visibilityState === 'hidden',
    },
  });
  store.setState({ actions: session.actions });
  const hooks: FaultHooks = {
    inject: (kind) => session.current?.injectFault(kind),
    memory: async () => (session.current ? session.current.api.memory() : null),
  };
  (globalThis as { __swarmFaults?: FaultHooks }).__swarmFaults = hooks;
  const stopHash = keepHash(store);
  session.open();
  void offerResume(store);
  return () => {
    stopHash();
    session.close();
  };
}

/**
 * Offers the run that was being trained when the page was last closed, if the library still holds
 * it with weights, and no other tab is training now (the run last saved may be the one it trains).
 */
async function offerResume(store: AppStore): Promise<void> {
  const id = activeRunId();
  if (id === null) return;
  try {
    if (await trainingElsewhere()) return;
    const lib = await pageLibrary();
    const summary = await lib.summary(id);
    if (!summary || summary.checkpoints === 0) return;
    store.getState().setResumable({ id, name: summary.name, updates: summary.updates });
  } catch {
    // An unreadable library is reported by the library panel; nothing is offered.
  }
}
