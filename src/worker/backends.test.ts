import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../rl/config';
import { chooseBackend } from './backends';
import { createProbe, probeRows } from './probe';

const tiny = { ...defaultConfig(), agents: 2, tasksPerUpdate: 1, groupSize: 2, tmaxStart: 6, tmaxEnd: 6, hidden: 16, scorer: 8 };
const fast = { budgetMs: 50, maxRuns: 2, initTimeoutMs: 300 };

beforeAll(() => {
  // The wasm binaries are not served in Node; without the backend its start-up noise stays out of the log.
  tf.removeBackend('wasm');
});

describe('createProbe', () => {
  it("runs the trainer's learn step on rows of the config's team, and leaves no tensor behind once disposed", async () => {
    const first = createProbe(tiny);
    await first.run(); // makes the backend's constants the learn step keeps
    first.dispose();
    const before = tf.memory().numTensors;
    const probe = createProbe(tiny);
    await probe.run();
    await probe.run();
    expect(tf.memory().numTensors).toBe(before + 18 + 6); // the probe's policy: 18 weight tensors, and the 6 fused weights its forward pass keeps
    probe.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('chooseBackend (in Node: no WebGPU, no WebGL, no wasm)', () => {
  it('auto times what starts, keeps the fastest, and lists what failed', async () => {
    const probe = createProbe(tiny);
    const report = await chooseBackend('auto', () => probe.run(), fast);
    probe.dispose();
    expect(report.backend).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    expect(report.timings.cpu).toBeGreaterThan(0);
    expect(report.timings.wasm).toBeNull();
    expect(report.notices.map((n) => n.split(':')[0])).toEqual(['webgpu', 'wasm', 'webgl']);
    expect(report.reason).toMatch(/^CPU: /);
  });

  it('a backend whose start-up hangs is given up after the timeout and the engine stays usable', async () => {
    tf.registerBackend('webgl', () => new Promise<never>(() => undefined));
    const report = await chooseBackend('webgl', () => undefined, fast);
    expect(report.backend).toBe('cpu');
    expect(report.reason).toMatch(/^CPU: WebGL was chosen by hand but did not start, so this one was chosen as auto chooses: /);
    expect(report.fellBack).toEqual({ from: 'webgl', why: 'it did not start' });
    expect(report.notices.filter((n) => n.startsWith('webgl:'))).toHaveLength(1); // not tried again
    expect(report.notices.some((n) => n.startsWith('webgl:') && /300 ms/.test(n))).toBe(true);
    expect(tf.getBackend()).toBe('cpu');
    expect(tf.tidy(() => tf.add(1, 2).dataSync()[0])).toBe(3);
  });

  it('a forced WebGPU where there is none says so and is chosen as auto chooses', async () => {
    const probe = createProbe(tiny);
    const report = await chooseBackend('webgpu', () => probe.run(), fast);
    probe.dispose();
    expect(report.backend).toBe('cpu');
    expect(report.fellBack).toEqual({ from: 'webgpu', why: 'this browser has no WebGPU' });
    expect(report.reason).toMatch(
      /^CPU: WebGPU was chosen by hand but is not available here \(this browser has no WebGPU\), so this one was chosen as auto chooses: /,
    );
    expect(report.timings.cpu).toBeGreaterThan(0);
    expect(report.software).toBeUndefined();
  });

  it('probe batches follow the training batch, within bounds', () => {
    expect(probeRows(tiny)).toBe(64);
    expect(probeRows({ ...tiny, agents: 8, tasksPerUpdate: 4, groupSize: 8, tmaxStart: 8, tmaxEnd: 8 })).toBe(2048);
    expect(probeRows(defaultConfig())).toBe(2048);
  });
});
