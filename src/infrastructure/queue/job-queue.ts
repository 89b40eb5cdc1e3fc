import { sql, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { Database } from '../db/connect.js';
import type { DB } from '../db/schema.js';
import { QUEUE_POLICIES, type QueueName, type QueuePolicy } from './queues.js';
import { databaseExecutor, transactionExecutor } from './sql-executor.js';

/** pg-boss keeps its tables in this schema of the service's database. */
export const QUEUE_SCHEMA = 'pgboss';

/**
 * Sends jobs only through an executor given per call (a transaction's). Constructing pg-boss touches no database
 * and sending needs no start(): only the installed queue (JobQueue.start, which the server runs before traffic).
 */
const sender = new PgBoss({
  db: { executeSql: () => Promise.reject(new Error('pg-boss sender used without a transaction')) },
  schema: QUEUE_SCHEMA,
  migrate: false,
  supervise: false,
  schedule: false,
});

/**
 * Enqueues in the caller's open transaction: the job exists if and only if that transaction commits. Fails (and
 * so rolls the caller back) when the queue was never installed.
 */
export async function enqueueInTransaction(trx: Kysely<DB>, queue: QueueName, data: object): Promise<string> {
  const id = await sender.send(queue, data, { db: transactionExecutor(trx) });
  if (!id) throw new Error(`job queue ${queue} refused the job (is the queue installed?)`);
  return id;
}

/**
 * Jobs of a queue by state (created, retry, active, completed, cancelled, failed), for operators; with `data`,
 * only jobs whose data contains it. Jobs finished long ago are archived by maintenance and not counted.
 */
export async function countJobsByState(db: Kysely<DB>, queue: QueueName, data: object = {}): Promise<Record<string, number>> {
  const { rows } = await sql<{ state: string; count: number }>`
    select state::text, count(*)::int as count from ${sql.raw(QUEUE_SCHEMA)}.job
    where name = ${queue} and data @> ${JSON.stringify(data)}::jsonb group by state`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
}

export interface JobQueueOptions {
  /**
   * Run queue maintenance on a timer: retry active jobs whose worker died (expiry), archive and delete old jobs.
   * Instances share it through the database (one runs it per interval). Off for a queue that only enqueues.
   */
  maintenance?: boolean;
  maintenanceIntervalSeconds?: number;
  /** Policy overrides, e.g. tests that need an expiry of seconds rather than minutes. */
  policies?: Partial<Record<QueueName, Partial<QueuePolicy>>>;
  onError?: (err: Error) => void;
}

export interface QueuedJob<T> {
  id: string;
  name: string;
  data: T;
  retryCount: number;
  retryLimit: number;
  output: unknown;
}

export type JobHandler<T> = (job: QueuedJob<T>) => Promise<void>;

/**
 * The durable job queue: pg-boss on the service's own database (PostgreSQL or embedded PGlite), so jobs are rows
 * that survive restarts and crashes, are enqueued in the caller's transaction, retried with backoff, and end in a
 * dead-letter queue an operator can see.
 */
export class JobQueue {
  private readonly boss: PgBoss;

  /** Touches no database until `start()`. */
  constructor(
    private readonly database: Database,
    private readonly options: JobQueueOptions = {},
  ) {
    this.boss = new PgBoss({
      db: databaseExecutor(database),
      schema: QUEUE_SCHEMA,
      migrate: true,
      schedule: false,
      supervise: options.maintenance ?? false,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    });
    // pg-boss reports background failures (a poll that could not reach the database) as events; unhandled, an
    // 'error' event would end the process.
    this.boss.on('error', options.onError ?? (() => undefined));
  }

  /** Starts a queue: see `start()`. */
  static async start(database: Database, options: JobQueueOptions = {}): Promise<JobQueue> {
    const queue = new JobQueue(database, options);
    await queue.start();
    return queue;
  }

  /** Installs or migrates pg-boss's schema when needed, creates the queues and applies their current policies. */
  async start(): Promise<void> {
    const { boss, options } = this;
    await boss.start();
    for (const [name, base] of Object.entries(QUEUE_POLICIES) as [QueueName, QueuePolicy][]) {
      const policy = { ...base, ...options.policies?.[name] };
      const settings: PgBoss.Queue = {
        name,
        retryLimit: policy.retryLimit,
        retryDelay: policy.retryDelaySeconds,
        retryBackoff: policy.retryBackoff,
        expireInSeconds: policy.expireInSeconds,
        ...(policy.deadLetter ? { deadLetter: policy.deadLetter } : {}),
      };
      await boss.createQueue(name, settings);
      // createQueue keeps an existing queue as it was; a changed policy applies to jobs enqueued from now on.
      await boss.updateQueue(name, settings);
    }
  }


  /** Polls `queue` and runs `handler` for each job; a handler that throws fails the job (retried, then dead-lettered). */
  async work<T>(queue: QueueName, options: { pollingIntervalSeconds: number }, handler: JobHandler<T>): Promise<void> {
    await this.boss.work<T>(queue, { pollingIntervalSeconds: options.pollingIntervalSeconds, includeMetadata: true, batchSize: 1 }, async (jobs) => {
      for (const job of jobs) await handler(toQueuedJob(job));
    });
  }

  /**
   * Runs every job of `queue` that is waiting, in this process, until none is left; returns how many ran. With
   * `now`, jobs waiting out a retry delay run at once too (an operator's "process now", tests).
   */
  async drain<T>(queue: QueueName, handler: JobHandler<T>, options: { now?: boolean } = {}): Promise<number> {
    let ran = 0;
    for (;;) {
      const [job] = await this.boss.fetch<T>(queue, { includeMetadata: true, batchSize: 1, ignoreStartAfter: options.now ?? false });
      if (!job) return ran;
      ran += 1;
      try {
        await handler(toQueuedJob(job));
        await this.boss.complete(queue, job.id);
      } catch (err) {
        await this.boss.fail(queue, job.id, { message: (err as Error).message });
      }
    }
  }

  /**
   * Fails (hence retries) every job of `queue` left active. Only safe where no other process can be working the
   * queue: embedded PGlite, whose data directory is locked by one process, after a crash of that process.
   */
  async retryOrphanedJobs(queue: QueueName): Promise<number> {
    const { rows } = await databaseExecutor(this.database).executeSql(`select id from ${QUEUE_SCHEMA}.job where name = $1 and state = 'active'`, [queue]);
    const ids = rows.map((row) => String(row.id));
    for (const id of ids) await this.boss.fail(queue, id, { message: 'the process working this job ended before finishing it' });
    return ids.length;
  }

  /** One round of maintenance now: expired active jobs are failed (so retried), old jobs archived. */
  async maintain(): Promise<void> {
    await this.boss.maintain();
  }

  /** Stops polling and waits up to `timeoutMs` for running jobs; any still running are failed (and so retried). */
  async stop(timeoutMs = 5000): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
  }
}

function toQueuedJob<T>(job: PgBoss.JobWithMetadata<T>): QueuedJob<T> {
  return { id: job.id, name: job.name, data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit, output: job.output };
}
