/**
 * One tab trains at a time. Two tabs of the app training at once would share the processor (each
 * at half speed or worse) and could save the same library entry over each other (a run resumed in
 * both), so a tab takes the lock before it trains and gives it back when it pauses; a tab that
 * finds it taken says why and offers to take it over, and the tab it was taken from pauses.
 */
export interface TrainingLock {
  /** Takes the lock unless another tab holds it; true when this tab holds it (now or already). */
  acquire(): Promise<boolean>;
  /** Takes the lock from the tab that holds it (that tab's `onLost` is called); resolves once this tab holds it. */
  takeOver(): Promise<void>;
  /** Gives the lock back (nothing when this tab does not hold it). */
  release(): void;
  /** `f` is called when another tab takes the lock over from this one. */
  onLost(f: () => void): void;
}

/** The Web Lock's name, shared by every tab of the app on one origin. */
export const TRAINING_LOCK = 'swarm-playground-training';

/** Whether a tab holds the training lock now (from a page that holds nothing itself: another tab trains). */
export async function trainingElsewhere(locks: LockManager | undefined = globalThis.navigator?.locks, name = TRAINING_LOCK): Promise<boolean> {
  if (!locks) return false;
  const { held = [] } = await locks.query();
  return held.some((l) => l.name === name);
}

/** A lock that is always granted (no Web Locks: an old browser or an insecure context; tests). */
export const soleTab = (): TrainingLock => ({
  acquire: async () => true,
  takeOver: async () => undefined,
  release: () => undefined,
  onLost: () => undefined,
});

/**
 * The training lock on the Web Locks API (`navigator.locks`), or `soleTab` where there is none.
 *
 * The lock is given back asynchronously: the browser frees it a moment after `release` returns. A
 * tab that gives it back and asks again at once (a lesson step that resets its run, then trains)
 * would find its own lock still held and take itself for another tab, so `acquire` first waits for
 * its last hold to end. Two `acquire`s at once share one request for the same reason.
 */
export function webTrainingLock(locks: LockManager | undefined = globalThis.navigator?.locks, name = TRAINING_LOCK): TrainingLock {
  if (!locks) return soleTab();
  let release: (() => void) | null = null;
  let lost: () => void = () => undefined;
  /** Settles once the browser has freed the lock of this tab's last hold. */
  let ended: Promise<unknown> = Promise.resolve();
  /** An `acquire` on its way (a second one waits for its answer). */
  let acquiring: Promise<boolean> | null = null;
  const hold = (options: LockOptions) =>
    new Promise<boolean>((granted) => {
      ended = locks
        .request(name, options, (lock) => {
          if (!lock) return granted(false);
          granted(true);
          return new Promise<void>((r) => (release = r));
        })
        .catch(() => {
          // Stolen: the request rejects (an AbortError) while this tab still thought it held the lock.
          if (!release) return;
          release = null;
          lost();
        });
    });
  return {
    acquire: () => {
      if (release) return Promise.resolve(true);
      acquiring ??= ended.then(() => hold({ ifAvailable: true })).finally(() => (acquiring = null));
      return acquiring;
    },
    takeOver: async () => {
      if (!release) await hold({ steal: true });
    },
    release: () => {
      const r = release;
      release = null;
      r?.();
    },
    onLost: (f) => void (lost = f),
  };
}
