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
