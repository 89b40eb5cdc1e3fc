import type pino from 'pino';
import type { Config } from './config/index.js';
import { connectDatabase, type Database } from './infrastructure/db/connect.js';
import { paymentsFor, type Payments } from './infrastructure/payments/select-provider.js';
import { JobQueue, type JobQueueOptions } from './infrastructure/queue/job-queue.js';
import { buildJobWorkers, type JobWorkers } from './services/jobs/registry.js';
import { closePdfThread } from './services/receipts/pdf-thread.js';
import { webhookSettings } from './services/webhooks/settings.js';

/**
 * The composition root: the one place that turns settings into the collaborators of an application (database,
 * job queue, the worker of every registered job type). The server, the tests, the CLI and the bench (which runs
 * the server) all build from here; each context owns its state, so two in one process share nothing.
 */
export interface AppContext {
  config: Config;
  database: Database;
  queue: JobQueue;
  workers: JobWorkers;
  /** Installs the queue, then starts every worker: this process works the jobs. */
  startJobs(): Promise<void>;
  /** Stops the workers and the queue (running jobs get `timeoutMs` to finish); the database stays open. */
  stopJobs(timeoutMs?: number): Promise<void>;
}

export interface ContextOptions {
  /** An open database to use instead of connecting (tests); it stays the caller's to close. */
  database?: Database;
  logger?: pino.Logger;
  queue?: JobQueueOptions;
  /** A queue to use instead of building one (tests that set their own policies); started by its owner. */
  jobQueue?: JobQueue;
  /** Injectable clock (tests): what time background work believes it is. */
  now?: () => Date;
}

/** The database the settings name: PostgreSQL at DATABASE_URL, else embedded PGlite in DATA_DIR. */
export function openDatabase(config: Config, options: { poolMax?: number; logger?: pino.Logger } = {}) {
  return connectDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: options.poolMax ?? config.DB_POOL_MAX,
    connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    preparedStatementsMax: config.DB_PREPARED_STATEMENTS,
    poolMode: config.DB_POOL_MODE,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/** Builds a context; nothing touches the job queue until `startJobs()` (or `queue.start()`). */
export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const database = options.database ?? (await openDatabase(config, { logger: options.logger }));
  const queue = options.jobQueue ?? new JobQueue(database, options.queue);
  let payments: Payments | null = null;
  const workers = buildJobWorkers({
    config,
    database,
    queue,
    webhooks: webhookSettings(config),
    payments: () => (payments ??= paymentsFor(config, database.db, options.now ?? (() => new Date()))),
    ...(options.now ? { now: options.now } : {}),
    ...(options.logger ? { log: options.logger } : {}),
  });
  return {
    config,
    database,
    queue,
    workers,
    async startJobs() {
      await queue.start();
      for (const worker of Object.values(workers)) await worker.start();
    },
    async stopJobs(timeoutMs) {
      for (const worker of Object.values(workers)) if ('stop' in worker) worker.stop();
      await queue.stop(timeoutMs);
      await closePdfThread();
    },
  };
}
