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
    expect(summarizeBackend(report({ backend: 'webgl', reason: 'WebGL: chosen by hand; WebGL renderer is a software fallback', software: true }))).toEqual({
      label: 'Slow: GPU emulated in software (WebGL)',
      speed: 'slow',
    });
  });

  it('says where threads were capped and why', () => {
    expect(summarizeBackend(report({ threads: 2, threadsNote: 'asked for 64; this machine has 2 cores' })).label).toBe(
      'Fast: WebAssembly, 2 threads (asked for 64; this machine has 2 cores)',
    );
    expect(summarizeBackend(report({ threads: 1, threadsNote: 'asked for 4; the page is not cross-origin isolated' }))).toEqual({
      label: 'WebAssembly, 1 thread (asked for 4; the page is not cross-origin isolated)',
      speed: 'ok',
    });
    expect(summarizeBackend(report({ backend: 'cpu', threadsNote: 'ignored' })).label).toBe('Slow fallback: plain JavaScript');
  });

  it('says which backend chosen by hand did not start, and what runs instead', () => {
    const fellBack = { from: 'webgpu' as const, why: 'no WebGPU adapter' };
    expect(summarizeBackend(report({ threads: 1, fellBack })).label).toBe('WebAssembly, 1 thread (WebGPU asked for: no WebGPU adapter)');
    expect(summarizeBackend(report({ backend: 'webgl', software: true, fellBack: { from: 'webgpu', why: 'it did not start' } })).label).toBe(
      'Slow: GPU emulated in software (WebGL; WebGPU asked for: it did not start)',
    );
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

  it('says where flat runs train in shards: a worker each, or all in one on a machine of one core', () => {
    expect(backendDetails(report({ shards: { count: 2, ownWorkers: 1 } }))[1]).toBe(
      "Shards: a flat run of 2 task groups or more splits each update's task groups over 2 shards, each shard but the first in a worker of its own; the same training as npm run experiment -- --threads 2.",
    );
    expect(backendDetails(report({ shards: { count: 2, ownWorkers: 0 } }))[1]).toMatch(/all in the training worker, as this machine reports one core/);
    expect(backendDetails(report({ shards: { count: 1, ownWorkers: 0 } }))).toEqual(['Why this backend: WASM: fastest of wasm 40 ms']);
  });

  it("says whether the learn step's own wasm kernels run", () => {
    expect(backendDetails(report({ kernels: true }))[1]).toMatch(/^Learn-step kernels: on\. The app's own WebAssembly/);
    expect(backendDetails(report({ kernels: false }))[1]).toMatch(/^Learn-step kernels: off\. They could not start here/);
    expect(backendDetails(report({ backend: 'cpu', reason: 'CPU: x', kernels: false }))).toEqual(['Why this backend: CPU: x']);
  });

  it('leaves out threads for other backends', () => {
    expect(backendDetails(report({ backend: 'cpu', reason: 'CPU: x', threadsWhy: 'ignored' }))).toEqual(['Why this backend: CPU: x']);
  });
});
