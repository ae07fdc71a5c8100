import { beforeEach, describe, expect, it } from 'vitest';
import { cancelJob, withProgress } from './progress';
import { useApp } from './store';

const initial = useApp.getState();
beforeEach(() => useApp.setState(initial, true));

/** A promise and the functions that settle it. */
function deferred<T>() {
  let resolve: (v: T) => void = () => undefined;
  let reject: (e: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('withProgress', () => {
  it("shows the job in its slot, the stage in words, until it ends; the job's result comes back", async () => {
    const done = deferred<string>();
    let report: (stage: string, share: number) => void = () => undefined;
    const job = withProgress(useApp, 'opening', 'big run', (onProgress) => ((report = onProgress), done.promise));
    expect(useApp.getState().opening).toEqual({ name: 'big run', stage: 'reading', done: 0 });
    report('unpack', 0.25);
    expect(useApp.getState().opening).toEqual({ name: 'big run', stage: 'unpacking', done: 0.25 });
    report('check', 0);
    expect(useApp.getState().opening?.stage).toBe('checking');
    expect(useApp.getState().importing).toBeNull();
    done.resolve('the run');
    expect(await job).toBe('the run');
    expect(useApp.getState().opening).toBeNull();
  });

  it('cancelJob stops the job in that slot through its signal; a failed job clears its line and passes its error on', async () => {
    const failed = deferred<never>();
    let signal: AbortSignal | null = null;
    const job = withProgress(useApp, 'importing', 'file.gz', (_, s) => ((signal = s), failed.promise));
    cancelJob('opening');
    expect(signal!.aborted).toBe(false);
    cancelJob('importing');
    expect(signal!.aborted).toBe(true);
    failed.reject(new Error('stopped'));
    await expect(job).rejects.toThrow('stopped');
    expect(useApp.getState().importing).toBeNull();
  });

  it("a job that ends after a newer one began in its slot leaves the newer one's line alone", async () => {
    const first = deferred<number>();
    const second = deferred<number>();
    let late: (stage: string, share: number) => void = () => undefined;
    const a = withProgress(useApp, 'opening', 'first', (onProgress) => ((late = onProgress), first.promise));
    const b = withProgress(useApp, 'opening', 'second', () => second.promise);
    late('unpack', 0.9);
    first.resolve(1);
    await a;
    expect(useApp.getState().opening).toEqual({ name: 'second', stage: 'reading', done: 0 });
    second.resolve(2);
    expect(await b).toBe(2);
    expect(useApp.getState().opening).toBeNull();
  });
});
