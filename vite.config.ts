import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { contentSecurityPolicy } from './build/csp.ts';
import { hostHeaders } from './build/hostHeaders.ts';
import { tfjsCoreOnly } from './build/tfjsCoreOnly.ts';
import { tfjsWasm, tfjsWasmThreads } from './build/tfjs-wasm.ts';

export default defineConfig({
  plugins: [react(), tfjsWasm(), contentSecurityPolicy()],
  // Test-only hooks (a NaN loss injected into the trainer) exist only in the e2e suite's build.
  define: { 'import.meta.env.SWARM_TEST_HOOKS': JSON.stringify(!!process.env.SWARM_TEST_PAGES) },
  // The workers' TF.js is tfjs-core and its backends, without the layers, converter and data packages (build/tfjsCoreOnly.ts).
  worker: { plugins: () => [tfjsWasmThreads(), tfjsCoreOnly()] },
  // Cross-origin isolated, so the wasm backend may run threads, with the headers a host sends (build/hostHeaders.ts).
  server: { headers: hostHeaders },
  preview: { headers: hostHeaders },
  build: {
    rolldownOptions: {
      // Test pages (worker-check.html) are built only for the e2e suite (SWARM_TEST_PAGES=1), never shipped.
      input: process.env.SWARM_TEST_PAGES ? { main: 'index.html', workerCheck: 'worker-check.html' } : { main: 'index.html' },
    },
  },
});
