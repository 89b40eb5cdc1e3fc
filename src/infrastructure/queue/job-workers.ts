import type PgBoss from 'pg-boss';
import type { Database } from '../db/connect.js';
import { QUEUE_SCHEMA } from './enqueue.js';
import type { QueueName } from './queues.js';
import { databaseExecutor } from './sql-executor.js';

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
 * Reported for a job that could not run yet because of another job (an earlier message about the same donation still
 * on its way): the job is put back in the queue, due in `seconds`, without counting a try of its retries.
 */
export class JobDeferred extends Error {
  constructor(readonly seconds: number) {
    super(`deferred for ${seconds} s`);
  }
}

/**
 * Runs a batch of jobs together; resolves with the jobs that failed (by id), which are retried on their own while the
 * others complete, and those deferred (JobDeferred). Throwing fails the whole batch.
 */
export type BatchHandler<T> = (jobs: QueuedJob<T>[]) => Promise<Map<string, Error>>;

export interface WorkOptions {
  pollingIntervalSeconds: number;
  /** Workers of the queue in this process, each running one batch at a time. */
  concurrency?: number;
  /** Jobs a worker fetches and runs together (default 1). */
  batchSize?: number;
  /** How often a running job proves its worker alive; must be well under the queue's expireInSeconds. */
  heartbeatSeconds?: number;
}

/** The workers of a process on pg-boss's queues: batches, heartbeats, wake-ups, and draining on demand. */
export class QueueWorkers {
  /** pg-boss worker ids by queue, to wake them. */
  private readonly workers = new Map<QueueName, string[]>();
  /** The jobs this process's workers are running now. */
  private readonly running = new Set<string>();

  constructor(
    private readonly boss: PgBoss,
    private readonly database: Database,
    private readonly onError?: (err: Error) => void,
  ) {}

  /**
   * Runs `handler` for the jobs of `queue` with `concurrency` workers. A worker that finished a job fetches the next
   * at once (pg-boss would otherwise sleep out its polling interval between jobs); an idle one polls every
   * `pollingIntervalSeconds` or is woken by `wake()`. While a job runs, a heartbeat keeps its expiry ahead, so
   * only a job whose worker died expires (see QueuePolicy.expireInSeconds). A handler that throws fails the job
   * (retried, then dead-lettered).
   */
  async work<T>(queue: QueueName, options: WorkOptions, handler: JobHandler<T>): Promise<void> {
    await this.workBatches<T>(queue, { ...options, batchSize: 1 }, async ([job]) => {
      await handler(job!);
      return new Map();
    });
  }

  /**
   * As `work`, `batchSize` jobs at a time: one fetch, one heartbeat and one completion for the batch, so a queue of
   * many small jobs costs a few statements per batch rather than per job. Jobs the handler reports failed are failed
   * one by one (retried with their own count); the rest complete together.
   */
  async workBatches<T>(queue: QueueName, options: WorkOptions, handler: BatchHandler<T>): Promise<void> {
    const ids: string[] = [];
    this.workers.set(queue, ids);
    for (let i = 0; i < (options.concurrency ?? 1); i += 1) {
      const id: string = await this.boss.work<T>(
        queue,
        {
          pollingIntervalSeconds: options.pollingIntervalSeconds,
          includeMetadata: true,
          batchSize: options.batchSize ?? 1,
        },
        async (jobs) => {
          const jobIds = jobs.map((job) => job.id);
          for (const jobId of jobIds) this.running.add(jobId);
          let failed: Map<string, Error>;
          try {
            failed = await this.withHeartbeat(queue, jobIds, options, () => handler(jobs.map(toQueuedJob)));
          } finally {
            for (const jobId of jobIds) this.running.delete(jobId);
          }
          await this.failEach(queue, failed);
          // Marks this worker as notified, so its loop fetches again without sleeping: there may be more.
          this.boss.notifyWorker(id);
        },
      );
      ids.push(id);
    }
  }

  /** Whether a worker of this process is running the job now. */
  isRunning(jobId: string): boolean {
    return this.running.has(jobId);
  }

  /** Wakes the idle workers of `queue` in this process (a job was just enqueued and committed). */
  wake(queue: QueueName): void {
    for (const id of this.workers.get(queue) ?? []) this.boss.notifyWorker(id);
  }

  /** The queues this process works. */
  queues(): QueueName[] {
    return [...this.workers.keys()];
  }

  wakeAll(): void {
    for (const queue of this.workers.keys()) this.wake(queue);
  }

  private async withHeartbeat<R>(queue: QueueName, jobIds: string[], options: WorkOptions, run: () => Promise<R>) {
    const everyMs = options.heartbeatSeconds ? options.heartbeatSeconds * 1000 : 0;
    const timer = everyMs
      ? setInterval(() => {
          // pg-boss 10 expires an active job at started_on + expire_in; moving started_on is the heartbeat.
          databaseExecutor(this.database)
            .executeSql(
              `update ${QUEUE_SCHEMA}.job set started_on = now() where name = $1 and id = any($2::uuid[]) and state = 'active'`,
              [queue, jobIds],
            )
            .catch((err: unknown) => this.onError?.(err as Error));
        }, everyMs)
      : undefined;
    try {
      return await run();
    } finally {
      clearInterval(timer);
    }
  }

  private async failEach(queue: QueueName, failed: Map<string, Error>) {
    const deferred = new Map<number, string[]>();
    for (const [jobId, err] of failed) {
      if (err instanceof JobDeferred) deferred.set(err.seconds, [...(deferred.get(err.seconds) ?? []), jobId]);
      else await this.boss.fail(queue, jobId, { message: err.message });
    }
    // Back to 'created' with started_on cleared: pg-boss counts a retry when it fetches a job that had started.
    for (const [seconds, ids] of deferred)
      await databaseExecutor(this.database).executeSql(
        `update ${QUEUE_SCHEMA}.job set state = 'created', started_on = null,
           start_after = now() + make_interval(secs => $3)
         where name = $1 and id = any($2::uuid[]) and state = 'active'`,
        [queue, ids, seconds],
      );
  }

  /**
   * Runs every job of `queue` that is waiting, in this process, until none is left; returns how many ran. With
   * `now`, jobs waiting out a retry delay run at once too (an operator's "process now", tests).
   */
  async drain<T>(queue: QueueName, handler: JobHandler<T>, options: { now?: boolean } = {}): Promise<number> {
    return this.drainBatches<T>(
      queue,
      1,
      async ([job]) => {
        try {
          await handler(job!);
          return new Map();
        } catch (err) {
          return new Map([[job!.id, err as Error]]);
        }
      },
      options,
    );
  }

  /** As `drain`, `batchSize` jobs at a time, failures reported as by a `workBatches` handler. */
  async drainBatches<T>(
    queue: QueueName,
    batchSize: number,
    handler: BatchHandler<T>,
    options: { now?: boolean } = {},
  ): Promise<number> {
    let ran = 0;
    for (;;) {
      const jobs = await this.boss.fetch<T>(queue, {
        includeMetadata: true,
        batchSize,
        ignoreStartAfter: options.now ?? false,
      });
      if (jobs.length === 0) return ran;
      ran += jobs.length;
      let failed: Map<string, Error>;
      try {
        failed = await handler(jobs.map(toQueuedJob));
      } catch (err) {
        failed = new Map(jobs.map((job) => [job.id, err as Error]));
      }
      await this.failEach(queue, failed);
      const done = jobs.filter((job) => !failed.has(job.id)).map((job) => job.id);
      if (done.length > 0) await this.boss.complete(queue, done);
      // Every job deferred: what they wait for runs elsewhere (another worker, a retry not due); fetching them again
      // at once (`now` ignores their start) would only spin.
      if ([...failed.values()].filter((err) => err instanceof JobDeferred).length === jobs.length) return ran;
    }
  }
}

function toQueuedJob<T>(job: PgBoss.JobWithMetadata<T>): QueuedJob<T> {
  return {
    id: job.id,
    name: job.name,
    data: job.data,
    retryCount: job.retryCount,
    retryLimit: job.retryLimit,
    output: job.output,
  };
}
