import type { BackendReport } from '../worker/protocol';

/** Plain-language summary of the backend: what a teacher reads at a glance. */
export interface BackendSummary {
  /** A few words, e.g. "Fast: WebAssembly, 2 threads". */
  label: string;
  /** fast, ok or slow: how the badge is coloured. */
  speed: 'fast' | 'ok' | 'slow';
}

/** Whether the report says the backend is a GPU emulated in software. */
const EMULATED = /emulated in software/;

/** The badge's words for `b`: the backend in plain language, with the wasm thread count. */
export function summarizeBackend(b: BackendReport): BackendSummary {
  switch (b.backend) {
    case 'webgpu':
    case 'webgl':
      return EMULATED.test(b.reason)
        ? { label: `Slow: GPU emulated in software (${b.backend === 'webgpu' ? 'WebGPU' : 'WebGL'})`, speed: 'slow' }
        : { label: `Fast: GPU (${b.backend === 'webgpu' ? 'WebGPU' : 'WebGL'})`, speed: 'fast' };
    case 'wasm': {
      const n = b.threads ?? 1;
      return n > 1 ? { label: `Fast: WebAssembly, ${n} threads`, speed: 'fast' } : { label: 'WebAssembly, 1 thread', speed: 'ok' };
    }
    case 'cpu':
      return { label: 'Slow fallback: plain JavaScript', speed: 'slow' };
  }
}

/** The technical detail behind the badge, one line each, for its popover. */
export function backendDetails(b: BackendReport): string[] {
  const lines = [`Why this backend: ${b.reason}`];
  if (b.backend === 'wasm' && b.threadsWhy) lines.push(`Threads: ${b.threads ?? 1}, ${b.threadsWhy}.`);
  const timed = Object.entries(b.timings).filter((e): e is [string, number] => typeof e[1] === 'number');
  if (timed.length) lines.push(`Measured per training step of this model: ${timed.map(([n, ms]) => `${n} ${ms} ms`).join(', ')}.`);
  for (const n of b.notices) lines.push(`Not used: ${n}`);
  return lines;
}
