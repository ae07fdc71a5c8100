import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The module `@tensorflow/tfjs` stands for in the worker's bundle. */
export const TFJS_CORE_ONLY = fileURLToPath(new URL('./tfjs-core-only.ts', import.meta.url));

/**
 * In the training worker's bundle (vite.config.ts, `worker.plugins`), `@tensorflow/tfjs` resolves to
 * tfjs-core with its CPU and WebGL backends (build/tfjs-core-only.ts): the layers, converter and data
 * packages that the full package carries are dropped. Node (tests, scripts) keeps the full package.
 */
export function tfjsCoreOnly(): Plugin {
  return {
    name: 'swarm-playground:tfjs-core-only',
    enforce: 'pre',
    resolveId(id) {
      return id === '@tensorflow/tfjs' ? TFJS_CORE_ONLY : null;
    },
  };
}
