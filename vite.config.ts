import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { tfjsWasm } from './build/tfjs-wasm.ts';

export default defineConfig({
  plugins: [react(), tfjsWasm()],
  build: {
    rolldownOptions: {
      input: { main: 'index.html', workerCheck: 'worker-check.html' },
    },
  },
});
