/**
 * What `@tensorflow/tfjs` is in the training worker's bundle (build/tfjsCoreOnly.ts): the package's
 * own entry (node_modules/@tensorflow/tfjs/dist/index.js, 4.22.0) without tfjs-layers,
 * tfjs-converter and tfjs-data, which the trainer never uses (it builds its model from core ops,
 * src/rl/dense.ts), so the worker's chunk is smaller and starts sooner. The packages imported here
 * are the ones `@tensorflow/tfjs` itself depends on, at its version.
 */
import '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-core/dist/public/chained_ops/register_all_chained_ops';
export * from '@tensorflow/tfjs-core';
export * from '@tensorflow/tfjs-backend-cpu';
export * from '@tensorflow/tfjs-backend-webgl';
