import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { contentSecurityPolicy } from './build/csp.ts';
import { tfjsWasm } from './build/tfjs-wasm.ts';

export default defineConfig({
  plugins: [react(), tfjsWasm(), contentSecurityPolicy()],
  build: {
    rolldownOptions: {
      // Test pages (worker-check.html) are built only for the e2e suite (SWARM_TEST_PAGES=1), never shipped.
      input: process.env.SWARM_TEST_PAGES ? { main: 'index.html', workerCheck: 'worker-check.html' } : { main: 'index.html' },
    },
  },
});
