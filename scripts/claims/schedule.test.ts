import { describe, expect, it } from 'vitest';
import { JobsFailedError, runJobs, type TrainJob } from './schedule';

const job = (condition: string, seed: number, parent?: string): TrainJob => ({
  condition,
  seed,
  key: `${condition}/${seed}`,
  parentKey: parent ? `${parent}/${seed}` : null,
});

/** A fake `start` whose jobs finish only when the test says so; `started(n)` resolves once n jobs have started. */
function harness() {
  const order: string[] = [];
  const open = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  const waiters: { n: number; wake: () => void }[] = [];
  let running = 0;
  let maxRunning = 0;
  const start = (j: TrainJob) =>
    new Promise<void>((resolve, reject) => {
      order.push(j.key);
      running++;
      maxRunning = Math.max(maxRunning, running);
      const done = () => running--;
      open.set(j.key, { resolve: () => (done(), resolve()), reject: (e) => (done(), reject(e)) });
      for (const w of waiters.filter((w) => order.length >= w.n)) w.wake();
    });
  return {
    start,
    order,
    maxRunning: () => maxRunning,
    started: (n: number) => (order.length >= n ? Promise.resolve() : new Promise<void>((wake) => waiters.push({ n, wake }))),
    finish: (key: string) => open.get(key)!.resolve(),
    fail: (key: string, message: string) => open.get(key)!.reject(new Error(message)),
  };
}

describe('runJobs', () => {
  it('runs at most N at once, in order, each continuation after its parent', async () => {
    const h = harness();
    const all = runJobs([job('a', 1), job('a', 2), job('c', 1, 'a'), job('c', 2, 'a'), job('b', 1)], 2, h.start);
    await h.started(2);
    expect(h.order).toEqual(['a/1', 'a/2']);
    h.finish('a/2');
    await h.started(3);
    expect(h.order[2]).toBe('c/2'); // c/1 still waits for a/1
    h.finish('a/1');
    await h.started(4);
    expect(h.order[3]).toBe('c/1');
    h.finish('c/2');
    await h.started(5);
    expect(h.order[4]).toBe('b/1');
    h.finish('c/1');
    h.finish('b/1');
    await all;
    expect(h.maxRunning()).toBe(2);
  });

  it('starts nothing after a failure, waits for the running ones, and names the failed condition and seed', async () => {
    const h = harness();
    const logs: string[] = [];
    let logged!: () => void;
    const firstLog = new Promise<void>((r) => (logged = r));
    const all = runJobs([job('a', 1), job('a', 2), job('c', 1, 'a'), job('b', 1)], 2, h.start, (l) => (logs.push(l), logged()));
    const outcome = all.then(
      () => null,
      (e: unknown) => e,
    );
    await h.started(2);
    h.fail('a/1', 'exit code 1');
    await firstLog; // the failure is recorded before a/2 frees its slot
    h.finish('a/2');
    const e = await outcome;
    expect(e).toBeInstanceOf(JobsFailedError);
    expect((e as Error).message).toMatch(/^training a seed 1 failed: exit code 1\nnot started: c seed 1, b seed 1$/);
    expect((e as JobsFailedError).notStarted.map((j) => j.key)).toEqual(['c/1', 'b/1']);
    expect(h.order).toEqual(['a/1', 'a/2']);
    expect(logs).toEqual(['a seed 1 failed: starting no further runs, waiting for the 1 running']);
  });

  it('runs one at a time with N = 1, a duplicate key once, and treats a parent outside the list as done', async () => {
    const h = harness();
    const all = runJobs([job('c', 1, 'cached'), job('b', 1), job('b', 1)], 1, h.start);
    await h.started(1);
    expect(h.order).toEqual(['c/1']);
    h.finish('c/1');
    await h.started(2);
    h.finish('b/1');
    await all;
    expect(h.order).toEqual(['c/1', 'b/1']);
    expect(h.maxRunning()).toBe(1);
    await expect(runJobs([], 4, h.start)).resolves.toBeUndefined();
    expect(() => runJobs([], 0, h.start)).toThrow(/positive integer/);
  });
});
