import { afterEach, describe, expect, it, vi } from 'vitest';
import { guardApi, watchWorker, workerEnded, WorkerFaultError, type WorkerFault, type WorkerLike } from './client';
import type { TrainerApi } from './protocol';

/** A worker that fires its events on demand. */
function fakeWorker(): WorkerLike & { fire(type: 'error' | 'messageerror', e?: Partial<ErrorEvent>): void } {
  const listeners: Record<string, ((e: Event) => void)[]> = {};
  return {
    addEventListener: (type, f) => void (listeners[type] ??= []).push(f),
    postMessage: () => undefined,
    terminate: () => undefined,
    fire: (type, e = {}) => listeners[type]?.forEach((f) => f(e as Event)),
  };
}

afterEach(() => void vi.useRealTimers());

describe('guardApi', () => {
  it('rejects a pending call and every later one once the worker faults', async () => {
    let fault: (f: WorkerFault) => void = () => undefined;
    const faulted = new Promise<WorkerFault>((r) => (fault = r));
    const never = new Promise<void>(() => undefined);
    const remote = { start: () => never, ping: () => Promise.resolve(true) } as unknown as TrainerApi;
    const api = guardApi(remote, faulted);
    await expect(api.ping()).resolves.toBe(true);
    const pending = api.start();
    fault({ kind: 'error', message: 'The training worker crashed (boom).' });
    await expect(pending).rejects.toBeInstanceOf(WorkerFaultError);
    await expect(api.ping()).rejects.toThrow('crashed (boom)');
  });

  it('is not a thenable, so awaiting the handle calls nothing', async () => {
    const api = guardApi({} as TrainerApi, new Promise(() => undefined));
    expect((api as unknown as { then?: unknown }).then).toBeUndefined();
  });
});

describe('workerEnded', () => {
  /** A lock manager where the worker takes its lock after `takesAfter` queries and holds it until `end()`; a free lock is granted at once. */
  function fakeLocks(takesAfter: number) {
    let queries = 0;
    let waiting: (() => void) | null = null;
    const locks = {
      gone: false,
      holds: () => queries > takesAfter && !locks.gone,
      query: async () => ({ held: ++queries > takesAfter && !locks.gone ? [{ name: 'w1', mode: 'exclusive' as const }] : [] }),
      request: (_name: string, f: () => void) => (locks.holds() ? new Promise<void>((r) => (waiting = () => r(f()))) : Promise.resolve(f())),
      end: () => {
        locks.gone = true;
        waiting?.();
      },
    };
    return locks;
  }

  it('resolves once the worker, seen holding its lock, lets it go; not before the worker took it; never after stop', async () => {
    vi.useFakeTimers();
    const locks = fakeLocks(3);
    let done = false;
    const { ended } = workerEnded(locks as unknown as LockManager, 'w1', 100, 10);
    void ended.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toBe(false);
    locks.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);

    const other = fakeLocks(0);
    const watched = workerEnded(other as unknown as LockManager, 'w1', 100, 10);
    let fired = false;
    void watched.ended.then(() => (fired = true));
    await vi.advanceTimersByTimeAsync(100);
    watched.stop();
    other.end();
    await vi.advanceTimersByTimeAsync(100);
    expect(fired).toBe(false);
  });
});

describe('watchWorker', () => {
  it('turns an error event into a fault, once', async () => {
    const w = fakeWorker();
    const { faulted } = watchWorker(w, () => Promise.resolve(), { pingMs: 1000, timeoutMs: 5000 });
    w.fire('error', { message: 'Uncaught Error: injected' });
    w.fire('messageerror');
    expect(await faulted).toEqual({ kind: 'error', message: 'The training worker crashed (Uncaught Error: injected).' });
  });

  it('a worker that ends without a word (its life lock released) is a fault at once, with no ping missed', async () => {
    const w = fakeWorker();
    let end = () => undefined as void;
    const ended = new Promise<void>((r) => (end = r));
    const { faulted } = watchWorker(w, () => Promise.resolve(), { pingMs: 1000, timeoutMs: 5000 }, ended);
    end();
    expect(await faulted).toEqual({ kind: 'ended', message: 'The training worker ended without a word (it was killed, closed or crashed).' });
  });

  it('turns a messageerror into a fault', async () => {
    const w = fakeWorker();
    const { faulted } = watchWorker(w, () => Promise.resolve(), { pingMs: 1000, timeoutMs: 5000 });
    w.fire('messageerror');
    expect((await faulted).kind).toBe('messageerror');
  });

  it('a worker that answers its pings late but within the limit is alive; one that stops answering is not', async () => {
    vi.useFakeTimers();
    let answer = true;
    const w = fakeWorker();
    const ping = () => (answer ? Promise.resolve() : new Promise<void>(() => undefined));
    let got: WorkerFault | null = null;
    const { faulted } = watchWorker(w, ping, { pingMs: 1000, timeoutMs: 5000 });
    void faulted.then((f) => (got = f));
    await vi.advanceTimersByTimeAsync(20_000);
    expect(got).toBeNull();
    answer = false;
    await vi.advanceTimersByTimeAsync(4_000);
    expect(got).toBeNull();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(got).toMatchObject({ kind: 'unresponsive' });
  });

  it('stops watching when stopped', async () => {
    vi.useFakeTimers();
    const w = fakeWorker();
    let got: WorkerFault | null = null;
    const { faulted, stop } = watchWorker(w, () => new Promise(() => undefined), { pingMs: 1000, timeoutMs: 2000 });
    void faulted.then((f) => (got = f));
    stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(got).toBeNull();
  });
});
