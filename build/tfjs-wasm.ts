import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/** URL path (below Vite's base) where the tfjs wasm binaries are served and emitted. */
export const TFJS_WASM_DIR = 'tfjs-wasm';

function wasmDistDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
}

/** The module of the threaded binary's Emscripten factory, which tfjs also runs as its threads' main script. */
const THREADED_FACTORY = /@tensorflow\/tfjs-backend-wasm\/wasm-out\/tfjs-backend-wasm-threaded-simd\.js$/;

/** `_scriptDir` as the Emscripten wrapper computes it once, outside its factory function. */
const SCRIPT_DIR_OUTSIDE = `  var _scriptDir = typeof document !== 'undefined' && document.currentScript ? document.currentScript.src : undefined;
  if (typeof __filename !== 'undefined') _scriptDir = _scriptDir || __filename;
  return (
function(WasmBackendModuleThreadedSimd) {
`;

/**
 * Makes the threaded wasm factory self-contained, so that it still works as its own source text.
 *
 * tfjs starts each wasm thread (an Emscripten pthread worker) from a Blob holding
 * `factory.toString()`. The factory reads `_scriptDir`, a variable of the wrapper around it,
 * guarded by `typeof _scriptDir !== "undefined"`. A minifier sees that the variable is declared,
 * renames it (to `e`, say) and drops the guard (`e !== void 0`), so the thread's copy of the
 * function, which has no wrapper, throws `e is not defined` and `tf.setBackend('wasm')` waits for
 * its threads forever. Computing `_scriptDir` inside the function keeps its text free of outer
 * variables, minified or not. Throws when the file does not have the expected shape (another
 * tfjs version): better a failed build than threads that hang.
 */
export function selfContainedThreadedFactory(code: string): string {
  const at = code.indexOf(SCRIPT_DIR_OUTSIDE);
  if (at < 0 || code.indexOf(SCRIPT_DIR_OUTSIDE, at + 1) >= 0) {
    throw new Error('tfjs-backend-wasm-threaded-simd.js does not have the expected wrapper: check build/tfjs-wasm.ts against this tfjs version');
  }
  const [dir, filename] = SCRIPT_DIR_OUTSIDE.split('\n');
  const inside = `  return (\nfunction(WasmBackendModuleThreadedSimd) {\n${dir}\n${filename}\n`;
  return code.slice(0, at) + inside + code.slice(at + SCRIPT_DIR_OUTSIDE.length);
}

function wasmFileNames(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.wasm'));
}

/**
 * Makes the `.wasm` binaries of `@tensorflow/tfjs-backend-wasm` available at `<base>tfjs-wasm/`:
 * served from node_modules by the dev server, emitted into the bundle by `vite build`.
 * The app points tfjs at them with `setWasmPaths(import.meta.env.BASE_URL + 'tfjs-wasm/')`.
 */
export function tfjsWasm(): Plugin {
  const dir = wasmDistDir();
  const names = new Set(wasmFileNames(dir));
  return {
    name: 'swarm-playground:tfjs-wasm',
    configureServer(server) {
      const prefix = `${server.config.base}${TFJS_WASM_DIR}/`;
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0] ?? '';
        if (!path.startsWith(prefix)) return next();
        const name = path.slice(prefix.length);
        if (!names.has(name)) {
          res.statusCode = 404;
          res.end();
          return;
        }
        res.setHeader('Content-Type', 'application/wasm');
        res.end(readFileSync(join(dir, name)));
      });
    },
    generateBundle() {
      for (const name of names) {
        this.emitFile({
          type: 'asset',
          fileName: `${TFJS_WASM_DIR}/${name}`,
          source: readFileSync(join(dir, name)),
        });
      }
    },
  };
}

/**
 * Rewrites the threaded wasm factory so that its threads start in a minified build (see
 * selfContainedThreadedFactory). TF.js runs in the training worker, so this belongs in Vite's
 * `worker.plugins` (a worker bundle does not get the page's plugins).
 */
export function tfjsWasmThreads(): Plugin {
  return {
    name: 'swarm-playground:tfjs-wasm-threads',
    transform(code, id) {
      if (!THREADED_FACTORY.test(id.split('?')[0])) return null;
      return { code: selfContainedThreadedFactory(code), map: null };
    },
  };
}
