import type { BackendReport } from '../worker/protocol';

/** Plain-language summary of the backend: what a teacher reads at a glance. */
export interface BackendSummary {
  /** A few words, e.g. "Fast: WebAssembly, 2 threads". */
  label: string;
  /** fast, ok or slow: how the badge is coloured. */
  speed: 'fast' | 'ok' | 'slow';
}

const NAMES = { webgpu: 'WebGPU', webgl: 'WebGL', wasm: 'WebAssembly', cpu: 'plain JavaScript' } as const;

/** The backend alone, in a few words. */
function baseSummary(b: BackendReport): BackendSummary {
  switch (b.backend) {
    case 'webgpu':
    case 'webgl':
      return b.software
        ? { label: `Slow: GPU emulated in software (${NAMES[b.backend]})`, speed: 'slow' }
        : { label: `Fast: GPU (${NAMES[b.backend]})`, speed: 'fast' };
    case 'wasm': {
      const n = b.threads ?? 1;
      return n > 1 ? { label: `Fast: WebAssembly, ${n} threads`, speed: 'fast' } : { label: 'WebAssembly, 1 thread', speed: 'ok' };
    }
    case 'cpu':
      return { label: 'Slow fallback: plain JavaScript', speed: 'slow' };
  }
}

/**
 * The badge's words for `b`: the backend in plain language, with the wasm thread count, and in
 * brackets where the link asked for something else: fewer threads than asked for and why
 * ("asked for 64; this machine has 2 cores"), a backend chosen by hand that did not start.
 */
export function summarizeBackend(b: BackendReport): BackendSummary {
  const base = baseSummary(b);
  const notes: string[] = [];
  if (b.fellBack) notes.push(`${NAMES[b.fellBack.from]} asked for: ${b.fellBack.why}`);
  if (b.backend === 'wasm' && b.threadsNote) notes.push(b.threadsNote);
  if (!notes.length) return base;
  // One pair of brackets: "Slow: GPU emulated in software (WebGL; WebGPU asked for: it did not start)".
  const label = base.label.endsWith(')') ? `${base.label.slice(0, -1)}; ${notes.join('; ')})` : `${base.label} (${notes.join('; ')})`;
  return { ...base, label };
}

/** How the wasm backend's flat runs split their updates (BackendReport.shards), in one line. */
function shardsLine({ count, ownWorkers }: { count: number; ownWorkers: number }): string {
  const where =
    ownWorkers >= count - 1
      ? `each shard but the first in a worker of its own`
      : ownWorkers > 0
        ? `${ownWorkers} of them in a worker of their own`
        : 'all in the training worker, as this machine reports one core (the same numbers, not faster)';
  return `Shards: a flat run of ${count} task groups or more splits each update's task groups over ${count} shards, ${where}; the same training as npm run experiment -- --threads ${count}.`;
}

/** The technical detail behind the badge, one line each, for its popover. */
export function backendDetails(b: BackendReport): string[] {
  const lines = [`Why this backend: ${b.reason}`];
  if (b.backend === 'wasm' && b.threadsWhy) lines.push(`Threads: ${b.threads ?? 1}, ${b.threadsWhy}.`);
  if (b.backend === 'wasm' && b.shards && b.shards.count > 1) lines.push(shardsLine(b.shards));
  if (b.backend === 'wasm' && b.kernels !== undefined)
    lines.push(
      b.kernels
        ? "Learn-step kernels: on. The app's own WebAssembly does part of each learning step, faster, with the same results."
        : 'Learn-step kernels: off. They could not start here, so TF.js does that part of each learning step: the same results, slower.',
    );
  const timed = Object.entries(b.timings).filter((e): e is [string, number] => typeof e[1] === 'number');
  if (timed.length) lines.push(`Measured per training step of this model: ${timed.map(([n, ms]) => `${n} ${ms} ms`).join(', ')}.`);
  for (const n of b.notices) lines.push(`Not used: ${n}`);
  return lines;
}
