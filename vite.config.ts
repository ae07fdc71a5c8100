import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { crossOriginIsolation } from './build/crossOriginIsolation.ts';
import { tfjsWasm, tfjsWasmThreads } from './build/tfjs-wasm.ts';

export default defineConfig({
  plugins: [react(), tfjsWasm()],
  worker: { plugins: () => [tfjsWasmThreads()] },
  // Cross-origin isolated, so the wasm backend may run threads (build/crossOriginIsolation.ts).
  server: { headers: crossOriginIsolation },
  preview: { headers: crossOriginIsolation },
  build: {
    rolldownOptions: {
      input: { main: 'index.html', workerCheck: 'worker-check.html' },
    },
  },
});
