import { runFileJob, type RunFileJob } from './runFileJobs';

/**
 * A stand-in for the run-file worker in Node tests: install it as the global `Worker` and every
 * job runs in this thread, its messages copied (and buffers moved) as `postMessage` would, each
 * delivered in a task of its own. `hold()` keeps the next workers' messages until `release()`.
 */
export class FakeRunFileWorker {
  /** Every worker started, oldest first. */
  static started: FakeRunFileWorker[] = [];
  private static holding = false;
  private static waiting: { n: number; resolve: (w: FakeRunFileWorker) => void }[] = [];
  onmessage: ((e: MessageEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  terminated = false;
  /** The jobs posted to this worker, as it received them. */
  readonly jobs: RunFileJob[] = [];
  private held: (() => void)[] | null;

  constructor() {
    this.held = FakeRunFileWorker.holding ? [] : null;
    FakeRunFileWorker.started.push(this);
  }

  /** Keeps the messages of workers started from now on until their `release()`. */
  static hold(on = true): void {
    FakeRunFileWorker.holding = on;
  }

  static reset(): void {
    FakeRunFileWorker.started = [];
    FakeRunFileWorker.holding = false;
    FakeRunFileWorker.waiting = [];
  }

  /** Resolves with the `n`th worker (from 1) once it has been given its job. */
  static job(n: number): Promise<FakeRunFileWorker> {
    const w = FakeRunFileWorker.started[n - 1];
    if (w?.jobs.length) return Promise.resolve(w);
    return new Promise((resolve) => FakeRunFileWorker.waiting.push({ n, resolve }));
  }

  postMessage(job: RunFileJob, transfer: Transferable[] = []): void {
    const received = structuredClone(job, { transfer });
    this.jobs.push(received);
    runFileJob(received, (m, moved) => this.deliver(structuredClone(m, { transfer: moved })));
    const n = FakeRunFileWorker.started.indexOf(this) + 1;
    for (const w of FakeRunFileWorker.waiting.filter((w) => w.n === n)) w.resolve(this);
    FakeRunFileWorker.waiting = FakeRunFileWorker.waiting.filter((w) => w.n !== n);
  }

  /** Sends on the messages held so far (and every later one); resolves once they have been delivered. */
  release(): Promise<void> {
    const held = this.held ?? [];
    this.held = null;
    return new Promise((resolve) => {
      for (const send of held) setTimeout(send, 0);
      setTimeout(resolve, 0);
    });
  }

  /** Makes the worker fail as an uncaught error in it would. */
  fail(message: string): void {
    setTimeout(() => this.onerror?.({ message } as ErrorEvent), 0);
  }

  terminate(): void {
    this.terminated = true;
  }

  private deliver(data: unknown): void {
    const send = () => {
      if (!this.terminated) this.onmessage?.({ data } as MessageEvent);
    };
    if (this.held) this.held.push(send);
    else setTimeout(send, 0);
  }
}
