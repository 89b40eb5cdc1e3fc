import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'client/test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database (embedded in memory, or a fresh PostgreSQL database), so files run in parallel.
    fileParallelism: true,
    // Vitest's default in run mode is one worker per core but one, which is a single worker on CI's two cores; the
    // files spend much of their time waiting on the database and on timers, so two workers there take the embedded
    // suite from 6 min 22 s to 4 min 41 s (same machine, minutes apart).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
