import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll } from 'vitest';
import { defaultConfig, type Config } from './config';
import type { SwarmPolicy } from './policy';
import { installWasmCopies } from './wasmCopies';

/** A run small enough for a test to train a few updates of it in a second or two (long-coupled tasks, 4 agents, 16 minutes). */
export const TINY_RUN: Config = {
  ...defaultConfig(),
  agents: 4,
  tasksPerUpdate: 2,
  groupSize: 4,
  updates: 3,
  tmaxStart: 16,
  tmaxEnd: 16,
  hidden: 16,
  scorer: 8,
};

/** Every weight of a policy, flattened in `vars` order: what tests compare to say two trainers hold the same weights. */
export async function policyWeights(policy: SwarmPolicy): Promise<number[]> {
  const parts = await Promise.all(Object.values(policy.vars).map((v) => v.data()));
  return parts.flatMap((p) => Array.from(p));
}

/**
 * Called in a describe block: its tests run on the wasm backend (one thread), and the cpu backend is
 * set again after them. The backend is registered only here, so that importing these helpers leaves
 * the other tests on their backend.
 */
export function onWasmBackend(): void {
  beforeAll(async () => {
    await import('@tensorflow/tfjs-backend-wasm');
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    if (!(await tf.setBackend('wasm'))) throw new Error('the wasm backend did not start');
    installWasmCopies();
  });
  afterAll(async () => {
    await tf.setBackend('cpu');
  });
}
