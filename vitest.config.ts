import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'client/test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database (embedded in memory, or a fresh PostgreSQL database), so files run in parallel.
    fileParallelism: true,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
