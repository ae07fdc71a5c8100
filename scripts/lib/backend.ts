import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';

import { installWasmCopies } from '../../src/rl/wasmCopies';

import type { NodeBackend } from './nodeBackends';

export { NODE_BACKENDS, type NodeBackend } from './nodeBackends';

/** Switches TF.js to `name` and waits until it is ready; throws if it cannot start. */
export async function useBackend(name: NodeBackend): Promise<void> {
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  const ok = await tf.setBackend(name);
  if (!ok) throw new Error(`TF.js backend "${name}" failed to initialise`);
  await tf.ready();
  if (name === 'wasm') installWasmCopies();
}
