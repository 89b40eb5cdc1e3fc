import PgBoss from 'pg-boss';
import type { Database } from '../db/connect.js';
import { QUEUE_SCHEMA } from './enqueue.js';
import { QUEUE_POLICIES, type QueueName, type QueuePolicy } from './queues.js';
import { databaseExecutor, type TrackedExecutor } from './sql-executor.js';
import { wakeInProcess, WakeListener } from './wakeups.js';
import { WakePoller } from './wake-poller.js';
import { QueueWorkers, type BatchHandler, type JobHandler, type WorkOptions } from './job-workers.js';

export type { BatchHandler, JobHandler, QueuedJob, WorkOptions } from './job-workers.js';

/**
 * Where every job due at once wakes its workers in-process (the embedded database: wakeups.ts), an idle worker's poll
 * only finds jobs that became due later — retries after their delay, scheduled runs — so it polls at most this often:
 * each poll there is a statement in the service's own thread (~5 ms on PGlite), and a second's worth of them was
 * ~4% of a core with nothing to do (docs/decisions/0054-embedded-workers-woken-in-process.md).
 */
const WOKEN_POLLING_INTERVAL_SECONDS = 5;

export interface JobQueueOptions {
  /**
   * Run queue maintenance on a timer: retry active jobs whose worker died (expiry), archive and delete old jobs.
   * Instances share it through the database (one runs it per interval). Off for a queue that only enqueues.
   */
  maintenance?: boolean;
  maintenanceIntervalSeconds?: number;
  /**
   * Finished jobs (completed, cancelled, failed) leave the job table this long after finishing, into pg-boss's
   * archive (default 24 h); archived jobs are deleted after `archiveRetentionDays` (default 7). Applied by the
   * maintenance above.
   */
  finishedJobRetentionSeconds?: number;
  archiveRetentionDays?: number;
  /**
   * PostgreSQL connection string of the service's database: a dedicated connection LISTENs there, so a job enqueued
   * by another instance (or the CLI) wakes this one's idle workers at once (see wakeups.ts). Unset on the embedded
   * database, where the only process wakes its workers itself.
   */
  listenUrl?: string;
  /**
   * Instead of listening (behind a pooler in transaction mode, where LISTEN cannot work): ask this often which
   * queues have a job due, and wake their idle workers (wake-poller.ts).
   */
  wakePollMs?: number;
  /** Policy overrides, e.g. tests that need an expiry of seconds rather than minutes. */
  policies?: Partial<Record<QueueName, Partial<QueuePolicy>>>;
  onError?: (err: Error) => void;
}

/**
 * The durable job queue: pg-boss on the service's own database (PostgreSQL or embedded PGlite), so jobs are rows
 * that survive restarts and crashes, are enqueued in the caller's transaction, retried with backoff, and end in a
 * dead-letter queue an operator can see.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  /** The statements pg-boss runs, so that stop() can wait for those it does not await itself. */
  private readonly executor: TrackedExecutor;
  private readonly runners: QueueWorkers;
  private listener: WakeListener | null = null;
  private poller: WakePoller | null = null;
  private stopListeningInProcess: (() => Promise<void>) | null = null;

  /** Touches no database until `start()`. */
  constructor(
    private readonly database: Database,
    private readonly options: JobQueueOptions = {},
  ) {
    this.executor = databaseExecutor(database, {
      onLostJobOutcome: (err) =>
        options.onError?.(Object.assign(new Error(`a job's outcome was not recorded: ${String(err)}`), { cause: err })),
    });
    this.boss = new PgBoss({
      db: this.executor,
      schema: QUEUE_SCHEMA,
      migrate: true,
      schedule: false,
      supervise: options.maintenance ?? false,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
      archiveCompletedAfterSeconds: options.finishedJobRetentionSeconds ?? 24 * 3600,
      archiveFailedAfterSeconds: options.finishedJobRetentionSeconds ?? 24 * 3600,
      deleteAfterDays: options.archiveRetentionDays ?? 7,
    });
    // pg-boss reports background failures (a poll that could not reach the database) as events; unhandled, an
    // 'error' event would end the process.
    this.boss.on('error', options.onError ?? (() => undefined));
    this.runners = new QueueWorkers(this.boss, database, options.onError);
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
        ...(policy.oneAtATime ? { policy: 'stately' } : {}),
      };
      await boss.createQueue(name, settings);
      // createQueue keeps an existing queue as it was; a changed policy applies to jobs enqueued from now on.
      await boss.updateQueue(name, settings);
    }
    this.stopListeningInProcess = await wakeInProcess(this.database, QUEUE_SCHEMA, (queue) =>
      this.wake(queue as QueueName),
    );
    if (options.listenUrl) {
      this.listener = new WakeListener(
        options.listenUrl,
        (queue) => (queue === null ? this.runners.wakeAll() : this.wake(queue as QueueName)),
        options.onError,
      );
      await this.listener.start();
    } else if (options.wakePollMs) {
      this.poller = new WakePoller(
        this.database,
        options.wakePollMs,
        () => this.runners.queues(),
        (queue) => this.wake(queue as QueueName),
        options.onError,
      );
      this.poller.start();
    }
  }

  /** Runs the jobs of `queue` one at a time per worker: see QueueWorkers.work. */
  work<T>(queue: QueueName, options: WorkOptions, handler: JobHandler<T>): Promise<void> {
    return this.runners.work(queue, this.polling(options), handler);
  }

  /** Runs the jobs of `queue` in batches: see QueueWorkers.workBatches. */
  workBatches<T>(queue: QueueName, options: WorkOptions, handler: BatchHandler<T>): Promise<void> {
    return this.runners.workBatches(queue, this.polling(options), handler);
  }

  private polling(options: WorkOptions): WorkOptions {
    if (!this.stopListeningInProcess) return options;
    const pollingIntervalSeconds = Math.max(options.pollingIntervalSeconds, WOKEN_POLLING_INTERVAL_SECONDS);
    return { ...options, pollingIntervalSeconds };
  }

  /** Wakes the idle workers of `queue` in this process (a job was just enqueued and committed). */
  wake(queue: QueueName): void {
    this.runners.wake(queue);
  }

  /** Runs every waiting job of `queue` now, in this process: see QueueWorkers.drain. */
  drain<T>(queue: QueueName, handler: JobHandler<T>, options: { now?: boolean } = {}): Promise<number> {
    return this.runners.drain(queue, handler, options);
  }

  drainBatches<T>(queue: QueueName, size: number, handler: BatchHandler<T>, options: { now?: boolean } = {}) {
    return this.runners.drainBatches(queue, size, handler, options);
  }

  /**
   * Enqueues a job outside any transaction, due in `startAfterSeconds`; resolves with null when the queue's policy
   * refuses it (a `oneAtATime` queue that already has a job waiting).
   */
  async schedule(queue: QueueName, data: object, startAfterSeconds = 0): Promise<string | null> {
    return this.boss.send(queue, data, startAfterSeconds > 0 ? { startAfter: startAfterSeconds } : {});
  }

  /**
   * Fails (hence retries) the jobs of `queue` left active: those of `ids`, or every one that no worker of this
   * process is running, which is only safe where no other process can be working the queue (embedded PGlite, whose
   * data directory one process locks, after a crash of that process). With `now`, the retry is due at once rather
   * than after the queue's retry delay: the worker is known dead, so there is nothing to back off from.
   */
  async retryOrphanedJobs(queue: QueueName, options: { ids?: string[]; now?: boolean } = {}): Promise<number> {
    const sql = databaseExecutor(this.database);
    const active = `select id from ${QUEUE_SCHEMA}.job where name = $1 and state = 'active'`;
    const ids =
      options.ids ??
      (await sql.executeSql(active, [queue])).rows
        .map((row) => String((row as { id: string }).id))
        .filter((id) => !this.runners.isRunning(id));
    for (const id of ids)
      await this.boss.fail(queue, id, { message: 'the process working this job ended before finishing it' });
    if (options.now && ids.length > 0)
      await sql.executeSql(
        `update ${QUEUE_SCHEMA}.job set start_after = now() where name = $1 and id = any($2::uuid[]) and state = 'retry'`,
        [queue, ids],
      );
    return ids.length;
  }

  /** One round of maintenance now: expired active jobs are failed (so retried), old jobs archived. */
  async maintain(): Promise<void> {
    await this.boss.maintain();
  }

  /**
   * Stops polling and waits up to `timeoutMs` for running jobs; any still running are failed (and so retried). Then
   * waits for pg-boss's last statements, so the database can be closed once this resolves.
   */
  async stop(timeoutMs = 5000): Promise<void> {
    await this.listener?.stop();
    this.listener = null;
    await this.poller?.stop();
    this.poller = null;
    // A database already closed, or gone, has nobody listening any more.
    await this.stopListeningInProcess?.().catch(() => undefined);
    this.stopListeningInProcess = null;
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
    await this.executor.settled();
  }
}
