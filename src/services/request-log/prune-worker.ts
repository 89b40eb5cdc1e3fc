import type { Logger } from 'pino';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue } from '../../infrastructure/queue/job-queue.js';
import { REQUEST_LOG_QUEUE } from '../../infrastructure/queue/queues.js';
import { prunePartnerRequestCounts } from '../../infrastructure/repositories/partner-request-counts.js';
import { prunePartnerRequests } from '../../infrastructure/repositories/partner-requests.js';

/** Between two runs: a day's log is a few hours' growth at most past its retention. */
const INTERVAL_SECONDS = 3600;

/**
 * The request log's pruning as a job of its own queue: one run at a time across every instance (the queue is
 * stately), each scheduling the next; rows and counts older than PARTNER_REQUEST_LOG_DAYS go in chunks
 * (docs/decisions/0087-request-log-one-table-pruned-in-chunks.md). It runs with the log off too: what was logged
 * before still leaves on time.
 */
export class RequestLogPruneWorker {
  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly days: number,
    private readonly now: () => Date,
    private readonly log?: Pick<Logger, 'info'>,
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') await this.queue.retryOrphanedJobs(REQUEST_LOG_QUEUE);
    await this.queue.work(REQUEST_LOG_QUEUE, { pollingIntervalSeconds: 30 }, () => this.runAndReschedule());
    // The first instance to start schedules a run now; afterwards the waiting next run makes this a no-op.
    await this.queue.schedule(REQUEST_LOG_QUEUE, {});
  }

  /** One run now, in this process (tests, operators): the number of rows deleted, requests' and counts'. */
  async run(): Promise<number> {
    const before = new Date(this.now().getTime() - this.days * 86_400_000);
    return (
      (await prunePartnerRequests(this.database.db, before)) +
      (await prunePartnerRequestCounts(this.database.db, before))
    );
  }

  private async runAndReschedule(): Promise<void> {
    try {
      const pruned = await this.run();
      if (pruned > 0) this.log?.info({ pruned }, 'request log pruned');
    } finally {
      // Scheduled even when the run failed: the retry covers this run, the schedule must go on.
      await this.queue.schedule(REQUEST_LOG_QUEUE, {}, INTERVAL_SECONDS);
    }
  }
}
