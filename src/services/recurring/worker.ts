import type { Logger } from 'pino';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue, QueuedJob } from '../../infrastructure/queue/job-queue.js';
import {
  DEBIT_COLLECTION_QUEUE,
  RECURRING_HEARTBEAT_SECONDS,
  RECURRING_SCAN_QUEUE,
} from '../../infrastructure/queue/queues.js';
import type { DebitCollectionJob } from '../jobs/definitions.js';
import { collectDebit } from './collect-debit.js';
import type { RecurringDeps } from './deps.js';
import { scheduleDueWork, type DueWorkReport } from './due-work.js';
import { PartnerClocks } from './partner-clock.js';

export interface RecurringWorkerSettings {
  scanIntervalSeconds: number;
  collectionConcurrency: number;
}

/**
 * The recurring donations' background work, on the job queue: the look for due work (one run at a time across
 * every instance, each scheduling the next: services/recurring/due-work.ts) and the collection of each try of a
 * debit (a job per try, worked by every instance).
 */
export class RecurringWorker {
  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly depsOf: () => RecurringDeps,
    private readonly settings: RecurringWorkerSettings,
    private readonly log?: Pick<Logger, 'info' | 'warn'>,
  ) {}

  private resolved: RecurringDeps | null = null;

  /** Built on first use: the payment provider is only needed once debits are worked. */
  private get deps(): RecurringDeps {
    this.resolved ??= this.depsOf();
    return this.resolved;
  }

  async start(): Promise<void> {
    // An embedded database is one process's: a job it was running when it died is its own to retry.
    if (this.database.kind === 'embedded') {
      await this.queue.retryOrphanedJobs(RECURRING_SCAN_QUEUE);
      await this.queue.retryOrphanedJobs(DEBIT_COLLECTION_QUEUE);
    }
    const heartbeatSeconds = RECURRING_HEARTBEAT_SECONDS;
    await this.queue.work(RECURRING_SCAN_QUEUE, { pollingIntervalSeconds: 5, heartbeatSeconds }, () =>
      this.scanAndReschedule(),
    );
    await this.queue.work<DebitCollectionJob>(
      DEBIT_COLLECTION_QUEUE,
      { pollingIntervalSeconds: 2, concurrency: this.settings.collectionConcurrency, heartbeatSeconds },
      (job) => this.collect(job),
    );
    // The first instance to start schedules a run now; afterwards the waiting next run makes this a no-op.
    await this.queue.schedule(RECURRING_SCAN_QUEUE, {});
  }

  /** One look for due work now, in this process (tests, operators). */
  async scan(): Promise<DueWorkReport> {
    const clocks = await PartnerClocks.read(this.deps.db, this.deps.now(), this.deps.timeZone);
    return scheduleDueWork(this.deps, clocks);
  }

  /** Runs every waiting collection job now, in this process; resolves with how many ran. */
  runPending(options: { now?: boolean } = {}): Promise<number> {
    return this.queue.drain<DebitCollectionJob>(DEBIT_COLLECTION_QUEUE, (job) => this.collect(job), options);
  }

  private async collect(job: QueuedJob<DebitCollectionJob>): Promise<void> {
    await collectDebit(this.deps, job.data.debitId);
  }

  private async scanAndReschedule(): Promise<void> {
    try {
      const report = await this.scan();
      if (report.debitsCreated + report.triesQueued + report.paymentsSettled > 0)
        this.log?.info({ ...report }, 'recurring donations: due work scheduled');
    } finally {
      // Scheduled even when the run failed: the retry covers this run, the schedule must go on.
      await this.queue.schedule(RECURRING_SCAN_QUEUE, {}, this.settings.scanIntervalSeconds);
    }
  }
}
