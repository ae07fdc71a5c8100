import type { ThreadRequest } from './protocol';

/** Most threads `auto` gives the wasm backend: past this, more threads buy little on the model's matmuls. */
export const MAX_AUTO_THREADS = 4;

/** How many threads the wasm backend should start with, and why, in plain words. */
export interface ThreadPlan {
  threads: number;
  why: string;
}

/**
 * Threads for the wasm backend: none beyond one unless the page is cross-origin isolated (threads
 * need SharedArrayBuffer); with `auto`, one per logical core but one, which is left to the page's
 * main thread (its views render while the worker trains), up to MAX_AUTO_THREADS; a number asks for
 * exactly that many (at least 1, at most 64). On the 2-core development machine one thread trained
 * faster than two (`npm run bench:ui`, docs/RESULTS.md: 4.59 against 3.81 updates/s).
 */
export function planThreads(request: ThreadRequest, isolated: boolean, cores: number): ThreadPlan {
  if (!isolated) return { threads: 1, why: 'the page is not cross-origin isolated, so the browser allows no threads' };
  if (request !== 'auto') {
    const n = Math.min(64, Math.max(1, Math.round(request)));
    return { threads: n, why: `${n} asked for in the link` };
  }
  const c = Number.isFinite(cores) && cores >= 1 ? Math.floor(cores) : 1;
  const n = Math.min(Math.max(1, c - 1), MAX_AUTO_THREADS);
  if (c === 1) return { threads: 1, why: 'one core' };
  return { threads: n, why: c - 1 > MAX_AUTO_THREADS ? `${c} cores, at most ${MAX_AUTO_THREADS} used` : `one per core but one, left to the page (${c} cores)` };
}

/**
 * The `threads` setting of a page address's query string (`?threads=2`, `?threads=auto`), for
 * measuring and for machines where threads misbehave; `auto` when absent or not a positive integer.
 */
export function threadsFromSearch(search: string): ThreadRequest {
  const v = new URLSearchParams(search).get('threads');
  if (v === null || v === 'auto' || !/^\d{1,2}$/.test(v) || Number(v) < 1) return 'auto';
  return Number(v);
}
