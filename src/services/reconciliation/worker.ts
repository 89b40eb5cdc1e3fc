import type { Logger } from 'pino';
import type { ReceiptPolicy } from '../../config/receipts.js';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue, QueuedJob } from '../../infrastructure/queue/job-queue.js';
import {
  RECONCILIATION_DEAD_LETTER_QUEUE,
  RECONCILIATION_HEARTBEAT_SECONDS,
  RECONCILIATION_QUEUE,
  RECONCILIATION_STALE_SECONDS,
} from '../../infrastructure/queue/queues.js';
import { markDeadLettered, recordFailure } from '../../infrastructure/repositories/reconciliation-failures.js';
import { orphanedReconciliationJobs } from '../../infrastructure/repositories/reconciliation-orphans.js';
import type { ReconciliationJob } from '../jobs/definitions.js';
import { reconcileBatch, type Checkpoint } from './reconcile-batch.js';

export interface ReconciliationWorkerOptions {
  log?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** How often an idle worker looks for new batches. */
  pollingIntervalSeconds?: number;
  /** Batches this process reconciles at once. */
  concurrency?: number;
  /** Test seam (crash tests). */
  checkpoint?: Checkpoint;
  /** Scheme, host and base path partners call: prefixes the report URL of `remittance.completed`. */
  apiBaseUrl?: string;
  /** Who issues the receipts of the donations a batch settles, and under which rules (docs/receipts.md). */
  receipts?: ReceiptPolicy;
}

/**
 * Works the reconciliation queue: each job reconciles one batch. A failure is noted on the batch and rethrown so
 * the queue retries with backoff; a job out of retries lands in the dead-letter queue, whose handler marks the
 * batch for operators (`remittances list --dead-lettered`, `remittances retry`).
 */
export class ReconciliationWorker {
  /** The jobs this process is running: never taken for orphans. */
  private readonly running = new Set<string>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly options: ReconciliationWorkerOptions = {},
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') {
      // One process per embedded data directory: a job still active now was left by a process that crashed.
      const orphans = await this.queue.retryOrphanedJobs(RECONCILIATION_QUEUE, { now: true });
      if (orphans > 0)
        this.options.log?.warn({ jobs: orphans }, 'retrying reconciliation jobs left active by a previous process');
    } else {
      // Other instances may be working the queue: only runs known dead are retried, at start (the instance that
      // was killed is often the one restarting) and then every heartbeat, ahead of the expiry that is the backstop.
      await this.retryDeadRuns();
      this.sweeper = setInterval(() => void this.retryDeadRuns(), RECONCILIATION_HEARTBEAT_SECONDS * 1000);
      this.sweeper.unref();
    }
    const pollingIntervalSeconds = this.options.pollingIntervalSeconds ?? 1;
    await this.queue.work<ReconciliationJob>(
      RECONCILIATION_QUEUE,
      {
        pollingIntervalSeconds,
        concurrency: this.options.concurrency ?? 1,
        heartbeatSeconds: RECONCILIATION_HEARTBEAT_SECONDS,
      },
      (job) => this.reconcile(job),
    );
    await this.queue.work<ReconciliationJob>(
      RECONCILIATION_DEAD_LETTER_QUEUE,
      { pollingIntervalSeconds: Math.max(pollingIntervalSeconds, 5) },
      (job) => this.deadLetter(job),
    );
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  /** Retries at once the jobs of runs that died with their instance (see orphanedReconciliationJobs). */
  private async retryDeadRuns(): Promise<void> {
    try {
      const ids = await orphanedReconciliationJobs(this.database.db, RECONCILIATION_QUEUE, {
        exclude: [...this.running],
        staleAfterSeconds: RECONCILIATION_STALE_SECONDS,
      });
      if (ids.length === 0) return;
      await this.queue.retryOrphanedJobs(RECONCILIATION_QUEUE, { ids, now: true });
      this.options.log?.warn({ jobs: ids.length }, 'retrying reconciliation jobs whose instance ended mid-run');
      this.wake();
    } catch (err) {
      this.options.log?.warn({ err: (err as Error).message }, 'could not look for reconciliations left by a dead run');
    }
  }

  /** A batch was just stored and committed: an idle worker of this process takes it at once. */
  wake(): void {
    this.queue.wake(RECONCILIATION_QUEUE);
  }

  /**
   * Runs every waiting reconciliation in this process and returns how many jobs ran. With `now` (the default),
   * jobs waiting out a retry delay run at once: what an operator asking to "process now", or a test, wants.
   */
  async runPending(options: { now?: boolean } = {}): Promise<number> {
    const now = options.now ?? true;
    const ran = await this.queue.drain<ReconciliationJob>(RECONCILIATION_QUEUE, (job) => this.reconcile(job), { now });
    await this.queue.drain<ReconciliationJob>(RECONCILIATION_DEAD_LETTER_QUEUE, (job) => this.deadLetter(job), { now });
    return ran;
  }

  private async reconcile(job: QueuedJob<ReconciliationJob>) {
    const { batchId } = job.data;
    const started = Date.now();
    this.running.add(job.id);
    try {
      const result = await reconcileBatch(
        this.database.db,
        batchId,
        this.options.checkpoint,
        this.options.apiBaseUrl,
        undefined,
        {
          receipts: this.options.receipts,
        },
      );
      const ms = Date.now() - started;
      if (result.ran)
        this.options.log?.info(
          { batchId, status: result.status, counts: result.counts, ms },
          'remittance batch reconciled',
        );
      else this.options.log?.info({ batchId, reason: result.reason }, 'remittance batch needed no reconciliation');
    } catch (err) {
      const message = (err as Error).message;
      this.options.log?.error(
        { batchId, attempt: job.retryCount + 1, of: job.retryLimit + 1, err: message },
        'remittance batch reconciliation failed',
      );
      await recordFailure(this.database.db, batchId, message).catch(() => undefined);
      throw err;
    } finally {
      this.running.delete(job.id);
    }
  }

  private async deadLetter(job: QueuedJob<ReconciliationJob>) {
    const { batchId } = job.data;
    this.options.log?.error(
      { batchId },
      'remittance batch reconciliation ran out of retries; an operator must look at it',
    );
    await markDeadLettered(this.database.db, batchId, failureMessage(job.output));
  }
}

/** pg-boss stores a failed job's error as its output; the dead-letter copy carries it. */
function failureMessage(output: unknown): string | null {
  if (output && typeof output === 'object' && 'message' in output && typeof output.message === 'string')
    return output.message;
  return null;
}
