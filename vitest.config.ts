import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'build/**/*.test.ts'],
      exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
      environment: 'node',
      testTimeout: 60000,
      // A run that finds no test fails: a wrong include pattern must not pass silently.
      passWithNoTests: false,
    },
  }),
);
