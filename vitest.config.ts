import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Each project resolves @contracts/* and @content/* from the tsconfig.json nearest each file.
const resolve = { tsconfigPaths: true };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: 'server',
          include: [
            'server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'eslint/**/*.test.ts',
            'contracts/**/*.test.ts',
            'content/**/*.test.ts',
          ],
          environment: 'node',
          // One PostgreSQL and one migrated template for the run; each test file copies the template.
          globalSetup: ['server/test/test-postgres.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        resolve,
        test: {
          name: 'web',
          include: ['web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/test/setup.ts'],
          // A test waits for states (up to 10 s each, web/test/setup.ts); a busy machine must not fail it for being
          // slow.
          testTimeout: 60_000,
        },
      },
      {
        resolve,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
