import { describe, expect, it } from 'vitest';
import { trainingElsewhere, webTrainingLock } from './trainingLock';

/** Resolves after pending promise callbacks have run (no timers involved). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/**
 * One Web Lock as a browser keeps it: a request that finds it held is refused (`ifAvailable`) or
 * takes it (`steal`: the holder's request rejects); a hold ends when its callback's promise settles,
 * and the lock is freed a few turns later (the browser's side), before the request's promise settles.
 */
class FakeLocks {
  held: { stolen: (e: Error) => void } | null = null;

  /** Decided a turn after the call, as the browser answers: two requests made at once are both seen before either is granted. */
  async request(name: string, options: LockOptions, callback: (lock: Lock | null) => unknown): Promise<unknown> {
    await Promise.resolve();
    if (this.held && options.steal) {
      this.held.stolen(new DOMException('stolen', 'AbortError'));
      this.held = null;
    }
    if (this.held && options.ifAvailable) return callback(null);
    if (this.held) throw new Error('a waiting request is not modelled');
    return new Promise((resolve, reject) => {
      const me = { stolen: reject };
      this.held = me;
      void Promise.resolve(callback({ name, mode: 'exclusive' } as Lock)).then(async (v) => {
        // Freed a moment after the hold ends, as the browser process does.
        await Promise.resolve();
        await Promise.resolve();
        if (this.held === me) this.held = null;
        resolve(v);
      });
    });
  }

  async query(): Promise<LockManagerSnapshot> {
    return { held: this.held ? [{ name: 'swarm-playground-training', mode: 'exclusive' }] : [], pending: [] };
  }
}

const manager = (f: FakeLocks) => f as unknown as LockManager;

describe('webTrainingLock', () => {
  it('a tab that gives the lock back and asks again at once gets it: its own lock, still being freed, is not another tab', async () => {
    const locks = new FakeLocks();
    const tab = webTrainingLock(manager(locks));
    expect(await tab.acquire()).toBe(true);
    tab.release();
    // The browser still holds the lock for this tab here: asked without waiting, it would be refused.
    expect(locks.held).not.toBeNull();
    expect(await tab.acquire()).toBe(true);
    expect(await trainingElsewhere(manager(locks))).toBe(true);
  });

  it('two asks at once share one request: both are granted', async () => {
    const tab = webTrainingLock(manager(new FakeLocks()));
    expect(await Promise.all([tab.acquire(), tab.acquire()])).toEqual([true, true]);
  });

  it('another tab is refused while one holds the lock, takes it over (the first is told), and gets it once it is given back', async () => {
    const locks = new FakeLocks();
    const first = webTrainingLock(manager(locks));
    const second = webTrainingLock(manager(locks));
    let lost = 0;
    first.onLost(() => lost++);
    expect(await first.acquire()).toBe(true);
    expect(await second.acquire()).toBe(false);
    await second.takeOver();
    await settle();
    expect(lost).toBe(1);
    // The first tab no longer holds it: it is refused, and its release gives nothing back.
    expect(await first.acquire()).toBe(false);
    first.release();
    expect(await second.acquire()).toBe(true);
    second.release();
    await settle();
    expect(locks.held).toBeNull();
    expect(await first.acquire()).toBe(true);
  });
});
