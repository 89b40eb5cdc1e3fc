import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'client/test/**/*.test.ts'],
    pool: 'forks',
    // One migrated embedded database for the run, copied by every file that uses one.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database (embedded in memory, or a fresh PostgreSQL database), so files run in parallel.
    // A worker process runs file after file (no new process and module graph per file): no test file mocks a module,
    // changes the environment or fakes timers, and each closes what it opens. The embedded suite on CI's machine:
    // 744 s with a process per file, 464 s without (the same hour).
    isolate: false,
    fileParallelism: true,
    // Vitest's default in run mode is one worker per core but one, which is a single worker on CI's two cores; the
    // files spend much of their time waiting on the database and on timers, so two workers there take the embedded
    // suite from 6 min 22 s to 4 min 41 s (same machine, minutes apart).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
