import type { Logger } from 'pino';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue } from '../../infrastructure/queue/job-queue.js';
import { HOUSEKEEPING_QUEUE } from '../../infrastructure/queue/queues.js';
import {
  pruneAuthFailureCounters,
  pruneIdempotencyKeys,
  pruneStaleQuotaCounters,
} from '../../infrastructure/repositories/housekeeping.js';
import { vacuumAndAnalyseWhereDue, type MaintenanceDone } from '../../infrastructure/repositories/table-maintenance.js';

export interface HousekeepingSettings {
  /** Idempotency-Key records older than this are pruned (IDEMPOTENCY_RETENTION_HOURS). */
  idempotencyRetentionHours: number;
  /** Seconds between runs (HOUSEKEEPING_INTERVAL_SECONDS). */
  intervalSeconds: number;
  /** The failed-authentication window (AUTH_FAILURE_WINDOW_SECONDS): older windows are pruned. */
  authFailureWindowSeconds: number;
}

export interface HousekeepingReport {
  idempotencyKeys: number;
  quotaCounters: number;
  authFailureCounters: number;
  /** On the embedded database, where autovacuum never runs: what this run vacuumed and analysed. */
  maintenance: MaintenanceDone | null;
}

/**
 * Keeps the tables that only grow in check: Idempotency-Key records past their retention, quota and
 * failed-authentication counters of windows long over, and (through pg-boss's maintenance) finished jobs. On the
 * embedded database it also does autovacuum's work, which single-user PostgreSQL never does. It runs as a durable
 * job of its own queue, one at a time across every instance; each run schedules the next.
 */
export class HousekeepingWorker {
  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly settings: HousekeepingSettings,
    private readonly log?: Pick<Logger, 'info' | 'warn'>,
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') await this.queue.retryOrphanedJobs(HOUSEKEEPING_QUEUE);
    await this.queue.work(HOUSEKEEPING_QUEUE, { pollingIntervalSeconds: 5 }, () => this.runAndReschedule());
    // The first instance to start schedules a run now; afterwards the waiting next run makes this a no-op.
    await this.queue.schedule(HOUSEKEEPING_QUEUE, {});
  }

  /** One run now, in this process (tests, operators). */
  async run(): Promise<HousekeepingReport> {
    const { db } = this.database;
    const pruned = {
      idempotencyKeys: await pruneIdempotencyKeys(db, this.settings.idempotencyRetentionHours),
      quotaCounters: await pruneStaleQuotaCounters(db),
      authFailureCounters: await pruneAuthFailureCounters(db, this.settings.authFailureWindowSeconds),
    };
    // Archives and deletes finished jobs past their retention (JobQueueOptions.finishedJobRetentionSeconds).
    await this.queue.maintain();
    // After the deletes, so that their dead rows are vacuumed by this run.
    const maintenance = this.database.kind === 'embedded' ? await vacuumAndAnalyseWhereDue(db) : null;
    return { ...pruned, maintenance };
  }

  private async runAndReschedule(): Promise<void> {
    try {
      const { maintenance, ...pruned } = await this.run();
      this.log?.info({ pruned, ...(maintenance ? { maintenance } : {}) }, 'housekeeping done');
    } finally {
      // Scheduled even when the run failed: the retry covers this run, the schedule must go on.
      await this.queue.schedule(HOUSEKEEPING_QUEUE, {}, this.settings.intervalSeconds);
    }
  }
}
