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

  it('a number asks for exactly that many, within bounds', () => {
    expect(planThreads(3, true, 2).threads).toBe(3);
    expect(planThreads(0, true, 2).threads).toBe(1);
    expect(planThreads(500, true, 2).threads).toBe(64);
  });
});

describe('threadsFromSearch', () => {
  it('reads a positive integer, else auto', () => {
    expect(threadsFromSearch('?threads=1')).toBe(1);
    expect(threadsFromSearch('?x=1&threads=12')).toBe(12);
    expect(threadsFromSearch('')).toBe('auto');
    expect(threadsFromSearch('?threads=auto')).toBe('auto');
    expect(threadsFromSearch('?threads=0')).toBe('auto');
    expect(threadsFromSearch('?threads=-2')).toBe('auto');
    expect(threadsFromSearch('?threads=1e9')).toBe('auto');
    expect(threadsFromSearch('?threads=<b>')).toBe('auto');
  });
});
