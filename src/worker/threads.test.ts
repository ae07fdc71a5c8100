import { describe, expect, it } from 'vitest';
import { MAX_AUTO_THREADS, planThreads, threadsFromSearch } from './threads';

describe('planThreads', () => {
  it('gives one thread when the page is not cross-origin isolated, whatever was asked', () => {
    expect(planThreads('auto', false, 8)).toMatchObject({ threads: 1 });
    expect(planThreads(4, false, 8).why).toMatch(/not cross-origin isolated/);
  });

  it('auto: one per core but one (left to the page), up to the limit', () => {
    expect(planThreads('auto', true, 2).threads).toBe(1);
    expect(planThreads('auto', true, 4).threads).toBe(3);
    expect(planThreads('auto', true, 1).threads).toBe(1);
    expect(planThreads('auto', true, 32).threads).toBe(MAX_AUTO_THREADS);
    expect(planThreads('auto', true, Number.NaN).threads).toBe(1);
  });

  it('a number asks for that many, within bounds, with nothing to add', () => {
    expect(planThreads(3, true, 4)).toEqual({ threads: 3, why: '3 asked for in the link' });
    expect(planThreads(0, true, 2).threads).toBe(1);
    expect(planThreads(2, true, 2).short).toBeUndefined();
  });

  it('a number is capped at the cores the browser reports, and the plan says so', () => {
    expect(planThreads(64, true, 2)).toEqual({
      threads: 2,
      why: '64 asked for in the link, but this machine has 2 cores',
      short: 'asked for 64; this machine has 2 cores',
    });
    expect(planThreads(500, true, 128)).toEqual({ threads: 64, why: '64 asked for in the link' });
    expect(planThreads(3, true, 1)).toMatchObject({ threads: 1, short: 'asked for 3; this machine has 1 core' });
    expect(planThreads(3, true, Number.NaN)).toMatchObject({ threads: 1, short: 'asked for 3; this machine has 1 core' });
  });

  it('says a number asked for is not used where the page is not isolated', () => {
    expect(planThreads(4, false, 8).short).toBe('asked for 4; the page is not cross-origin isolated');
    expect(planThreads(1, false, 8).short).toBeUndefined();
    expect(planThreads('auto', false, 8).short).toBeUndefined();
  });
});

describe('threadsFromSearch', () => {
  it('reads auto or an integer from 1 to 64, with no notice', () => {
    expect(threadsFromSearch('?threads=1')).toEqual({ threads: 1, notice: null });
    expect(threadsFromSearch('?x=1&threads=12')).toEqual({ threads: 12, notice: null });
    expect(threadsFromSearch('?threads=64')).toEqual({ threads: 64, notice: null });
    expect(threadsFromSearch('')).toEqual({ threads: 'auto', notice: null });
    expect(threadsFromSearch('?threads=auto')).toEqual({ threads: 'auto', notice: null });
  });

  it('names any other value in a notice and uses auto', () => {
    for (const bad of ['999', '-1', 'abc', '1e308', '0', '2.5', '0x3', '', '65', '<b>']) {
      const r = threadsFromSearch(`?threads=${encodeURIComponent(bad)}`);
      expect(r.threads).toBe('auto');
      expect(r.notice).toBe(`Link setting "threads": ${JSON.stringify(bad)} is not auto or an integer from 1 to 64; threads are chosen automatically`);
    }
  });
});
