import { describeRule, readNumber, type NumberRule } from '../rl/readNumber';
import type { ThreadRequest } from './protocol';

/** Most threads `auto` gives the wasm backend: past this, more threads buy little on the model's matmuls. */
export const MAX_AUTO_THREADS = 4;

/** Most threads a link may ask for. */
export const MAX_THREADS = 64;

/** What `?threads=` may be besides `auto`. */
const THREADS_RULE: NumberRule = { kind: 'int', min: 1, max: MAX_THREADS };

/** How many threads the wasm backend should start with, and why, in plain words. */
export interface ThreadPlan {
  threads: number;
  why: string;
  /**
   * Where the link asked for a number and gets fewer: what was asked and why not, in a few words
   * for the badge ("asked for 64; this machine has 2 cores").
   */
  short?: string;
}

/** "1 core", "2 cores". */
function coresText(n: number): string {
  return n === 1 ? '1 core' : `${n} cores`;
}

/**
 * Threads for the wasm backend: none beyond one unless the page is cross-origin isolated (threads
 * need SharedArrayBuffer); with `auto`, one per logical core but one, which is left to the page's
 * main thread (its views render while the worker trains), up to MAX_AUTO_THREADS; a number asks for
 * that many, but never more than the cores the browser reports (`cores`): more threads than cores
 * wait on each other (docs/HISTORY.md, issue 26: on 2 cores, 64 asked for started 8 threads at a
 * median 1,008 ms an update; capped at 2, 379 ms). On the 2-core development machine one thread
 * trained faster than two (`npm run bench:ui`, docs/HISTORY.md: 4.59 against 3.81 updates/s).
 */
export function planThreads(request: ThreadRequest, isolated: boolean, cores: number): ThreadPlan {
  const asked = request === 'auto' ? null : Math.min(MAX_THREADS, Math.max(1, Math.round(request)));
  if (!isolated) {
    const why = 'the page is not cross-origin isolated, so the browser allows no threads';
    return asked !== null && asked > 1 ? { threads: 1, why, short: `asked for ${asked}; the page is not cross-origin isolated` } : { threads: 1, why };
  }
  const c = Number.isFinite(cores) && cores >= 1 ? Math.floor(cores) : 1;
  if (asked !== null) {
    if (asked <= c) return { threads: asked, why: `${asked} asked for in the link` };
    return {
      threads: c,
      why: `${asked} asked for in the link, but this machine has ${coresText(c)}`,
      short: `asked for ${asked}; this machine has ${coresText(c)}`,
    };
  }
  const n = Math.min(Math.max(1, c - 1), MAX_AUTO_THREADS);
  if (c === 1) return { threads: 1, why: 'one core' };
  return { threads: n, why: c - 1 > MAX_AUTO_THREADS ? `${c} cores, at most ${MAX_AUTO_THREADS} used` : `one per core but one, left to the page (${c} cores)` };
}

/**
 * The `threads` setting of a page address's query string (`?threads=2`, `?threads=auto`), for
 * measuring and for machines where threads misbehave: `auto` or an integer from 1 to MAX_THREADS,
 * read like the hash's numbers. Absent: `auto`. Anything else is `auto` too, with a notice naming
 * the value (to show beside the hash's notices).
 */
export function threadsFromSearch(search: string): { threads: ThreadRequest; notice: string | null } {
  const v = new URLSearchParams(search).get('threads');
  if (v === null || v.trim() === 'auto') return { threads: 'auto', notice: null };
  const r = readNumber(v, THREADS_RULE);
  if (r.ok) return { threads: r.value, notice: null };
  const shown = JSON.stringify(v.length > 24 ? `${v.slice(0, 24)}…` : v);
  return { threads: 'auto', notice: `Link setting "threads": ${shown} is not auto or ${describeRule(THREADS_RULE)}; threads are chosen automatically` };
}
