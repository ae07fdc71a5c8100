import { describe, expect, it } from 'vitest';
import type { BackendReport } from '../worker/protocol';
import { backendDetails, summarizeBackend } from './backendSummary';

const report = (patch: Partial<BackendReport>): BackendReport => ({
  backend: 'wasm',
  reason: 'WASM: fastest of wasm 40 ms',
  timings: {},
  notices: [],
  ...patch,
});

describe('summarizeBackend', () => {
  it('names wasm with its threads', () => {
    expect(summarizeBackend(report({ threads: 2 }))).toEqual({ label: 'Fast: WebAssembly, 2 threads', speed: 'fast' });
    expect(summarizeBackend(report({ threads: 1 }))).toEqual({ label: 'WebAssembly, 1 thread', speed: 'ok' });
    expect(summarizeBackend(report({})).label).toBe('WebAssembly, 1 thread');
  });

  it('tells a real GPU from one emulated in software', () => {
    expect(summarizeBackend(report({ backend: 'webgpu', reason: 'WebGPU: nvidia/ampere' }))).toEqual({ label: 'Fast: GPU (WebGPU)', speed: 'fast' });
    expect(summarizeBackend(report({ backend: 'webgl', reason: 'WebGL: chosen by hand (emulated in software here)' })).speed).toBe('slow');
  });

  it('calls the CPU backend a slow fallback', () => {
    expect(summarizeBackend(report({ backend: 'cpu', reason: 'CPU: the only backend that ran' }))).toEqual({
      label: 'Slow fallback: plain JavaScript',
      speed: 'slow',
    });
  });
});

describe('backendDetails', () => {
  it('gives the reason, the threads, the timings and what was not used', () => {
    const lines = backendDetails(
      report({ threads: 2, threadsWhy: 'one per core (2)', timings: { wasm: 41.5, webgl: null }, notices: ['webgpu: no WebGPU adapter'] }),
    );
    expect(lines).toEqual([
      'Why this backend: WASM: fastest of wasm 40 ms',
      'Threads: 2, one per core (2).',
      'Measured per training step of this model: wasm 41.5 ms.',
      'Not used: webgpu: no WebGPU adapter',
    ]);
  });

  it('leaves out threads for other backends', () => {
    expect(backendDetails(report({ backend: 'cpu', reason: 'CPU: x', threadsWhy: 'ignored' }))).toEqual(['Why this backend: CPU: x']);
  });
});
