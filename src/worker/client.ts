import * as Comlink from 'comlink';
import type { TrainerApi } from './protocol';

/**
 * Why a worker was given up: it threw outside any call, sent a message that could not be read,
 * stopped answering, or ended without a word (killed or closed: its life lock was released).
 */
export interface WorkerFault {
  kind: 'error' | 'messageerror' | 'unresponsive' | 'ended';
  /** One sentence for the user. */
  message: string;
}

/** Thrown by every call to a worker that has faulted (pending calls included). */
export class WorkerFaultError extends Error {
  readonly fault: WorkerFault;
  constructor(fault: WorkerFault) {
    super(fault.message);
    this.name = 'WorkerFaultError';
    this.fault = fault;
  }
}

/** A training worker and its typed handle. */
export interface TrainerClient {
  /** The worker's API; every call rejects with a WorkerFaultError once the worker has faulted. */
  api: TrainerApi;
  /** Resolves (never rejects) with the fault that ended the worker; pending when it is healthy. */
  faulted: Promise<WorkerFault>;
  /** Releases the handle and stops the worker at once (an update in flight is abandoned). */
  terminate(): void;
  /** Test hook: makes the worker fail the way a real fault would (see trainer.worker.ts). */
  injectFault(kind: InjectedFault): void;
}

/**
 * Faults a test can inject: an uncaught throw, the worker closing itself, a lost device (the next
 * update throws), or (in the e2e suite's build only) a NaN loss in the next update; `kill` ends the
 * worker from outside, as a crash would (the page terminates it without a word to the client).
 */
export type InjectedFault = 'throw' | 'close' | 'device' | 'nan' | 'kill';

/** The message a worker listens for to inject a fault (never sent by the app itself). */
export interface FaultMessage {
  swarmFault: InjectedFault;
}

/** How the client tells a hung or closed worker from a busy one. */
export interface WatchdogOptions {
  /** How often the worker is asked whether it is alive. */
  pingMs: number;
  /** How long it may leave a ping unanswered before it counts as dead (an update in flight answers between steps). */
  timeoutMs: number;
}

/**
 * A closed worker fires no event, so the client pings it; one update of the largest settings can
 * hold the worker's thread for many seconds, hence the long default.
 */
export const DEFAULT_WATCHDOG: WatchdogOptions = { pingMs: 2_000, timeoutMs: 30_000 };

/** What the guarded client needs from a worker (a DOM Worker, or a fake in tests). */
export interface WorkerLike {
  addEventListener(type: 'error' | 'messageerror', listener: (e: Event) => void): void;
  postMessage(message: unknown): void;
  terminate(): void;
}

/**
 * Wraps `remote` so that every call races the worker's fault: a call pending when the worker dies,
 * and every call after, rejects with a WorkerFaultError instead of waiting forever.
 */
export function guardApi(remote: TrainerApi, faulted: Promise<WorkerFault>): TrainerApi {
  let fault: WorkerFault | null = null;
  void faulted.then((f) => (fault = f));
  const dead = faulted.then((f) => Promise.reject(new WorkerFaultError(f)));
  dead.catch(() => undefined);
  return new Proxy({} as TrainerApi, {
    get(_, key: string) {
      // Not a thenable: `await client.api` must not call the worker.
      if (key === 'then') return undefined;
      return (...args: unknown[]) => {
        if (fault) return Promise.reject(new WorkerFaultError(fault));
        const f = (remote as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[key];
        return Promise.race([f(...args), dead]);
      };
    },
  });
}

/**
 * Watches a worker: its `error` and `messageerror` events, and a ping (`ping` answers between
 * updates) left unanswered for `timeoutMs`, each fault it once. Returns the fault promise and a
 * stop function.
 */
export function watchWorker(
  worker: WorkerLike,
  ping: () => Promise<unknown>,
  options: WatchdogOptions,
  ended?: Promise<void>,
): { faulted: Promise<WorkerFault>; stop: () => void; fail: (f: WorkerFault) => void } {
  let resolve: (f: WorkerFault) => void = () => undefined;
  const faulted = new Promise<WorkerFault>((r) => (resolve = r));
  let done = false;
  let timer: ReturnType<typeof setInterval> | null = null;
  const fail = (f: WorkerFault) => {
    if (done) return;
    done = true;
    if (timer !== null) clearInterval(timer);
    resolve(f);
  };
  worker.addEventListener('error', (e) => {
    const detail = (e as ErrorEvent).message;
    fail({ kind: 'error', message: `The training worker crashed${detail ? ` (${detail})` : ''}.` });
  });
  worker.addEventListener('messageerror', () => fail({ kind: 'messageerror', message: 'The training worker sent a message that could not be read.' }));
  void ended?.then(() => fail({ kind: 'ended', message: 'The training worker ended without a word (it was killed, closed or crashed).' }));
  let waitingSince: number | null = null;
  timer = setInterval(() => {
    if (done) return;
    if (waitingSince !== null) {
      if (Date.now() - waitingSince > options.timeoutMs)
        fail({ kind: 'unresponsive', message: `The training worker stopped answering (nothing for ${Math.round(options.timeoutMs / 1000)} s).` });
      return;
    }
    waitingSince = Date.now();
    ping().then(
      () => (waitingSince = null),
      () => undefined,
    );
  }, options.pingMs);
  return {
    faulted,
    fail,
    stop: () => {
      done = true;
      if (timer !== null) clearInterval(timer);
    },
  };
}

/**
 * Resolves when the worker that holds the Web Lock `name` for its life (trainer.worker.ts takes the
 * lock named after itself) has ended, however it ended: the lock is granted to this side then.
 * Looks every `pollMs` until the worker holds it (at most `tries` times), so that a worker not yet
 * started is not taken for an ended one. Never resolves without Web Locks, or after `stop()`.
 */
export function workerEnded(locks: LockManager | undefined, name: string, pollMs = 100, tries = 300): { ended: Promise<void>; stop: () => void } {
  let stopped = false;
  const ended = new Promise<void>((resolve) => {
    if (!locks) return;
    let left = tries;
    const look = async () => {
      if (stopped) return;
      const held = (await locks.query()).held ?? [];
      if (!held.some((l) => l.name === name)) {
        if (--left > 0) setTimeout(() => void look(), pollMs);
        return;
      }
      void locks.request(name, () => {
        if (!stopped) resolve();
      });
    };
    void look().catch(() => undefined);
  });
  return { ended, stop: () => void (stopped = true) };
}

/** Starts a training worker (a module worker, bundled by Vite), wrapped with Comlink and watched for faults. */
export function createTrainerClient(watchdog: WatchdogOptions = DEFAULT_WATCHDOG): TrainerClient {
  const name = `swarm-trainer-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const worker = new Worker(new URL('./trainer.worker.ts', import.meta.url), { type: 'module', name });
  const remote = Comlink.wrap<TrainerApi>(worker);
  const life = workerEnded(globalThis.navigator?.locks, name);
  const watch = watchWorker(worker, () => remote.ping(), watchdog, life.ended);
  const api = guardApi(remote as unknown as TrainerApi, watch.faulted);
  return {
    api,
    faulted: watch.faulted,
    terminate() {
      watch.stop();
      life.stop();
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
    injectFault(kind) {
      // Killed from outside: the client is not told (its watchdog and life lock must notice).
      if (kind === 'kill') return worker.terminate();
      const m: FaultMessage = { swarmFault: kind };
      worker.postMessage(m);
    },
  };
}
