import type { Logger } from 'pino';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue } from '../../infrastructure/queue/job-queue.js';
import { PARTNER_NOTICES_QUEUE } from '../../infrastructure/queue/queues.js';
import { sendScheduledNotices, type NoticeSchedule, type ScheduledReport } from './scheduled.js';

export interface NoticeWorkerSettings extends NoticeSchedule {
  /** PARTNER_NOTICE_INTERVAL_SECONDS: between two looks for notices due. */
  intervalSeconds: number;
}

/**
 * The scheduled partner notices (docs/partners.md, "Notices") as a job of their own queue: one run at a time across
 * every instance (the queue is stately), each scheduling the next. What a run sends is keyed once per notice, so
 * a run repeated after a crash, or racing another, sends nothing twice. Log lines carry counts, never an address.
 */
export class PartnerNoticesWorker {
  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly settings: NoticeWorkerSettings,
    private readonly now: () => Date,
    private readonly log?: Pick<Logger, 'info'>,
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') await this.queue.retryOrphanedJobs(PARTNER_NOTICES_QUEUE);
    await this.queue.work(PARTNER_NOTICES_QUEUE, { pollingIntervalSeconds: 30 }, () => this.runAndReschedule());
    // The first instance to start schedules a run now; afterwards the waiting next run makes this a no-op.
    await this.queue.schedule(PARTNER_NOTICES_QUEUE, {});
    // The worker's first poll may have come before that job: take it now rather than a polling interval later.
    this.queue.wake(PARTNER_NOTICES_QUEUE);
  }

  /** One look for notices due now, in this process (tests, operators). */
  run(): Promise<ScheduledReport> {
    return sendScheduledNotices(this.database.db, this.now(), this.settings);
  }

  private async runAndReschedule(): Promise<void> {
    try {
      const report = await this.run();
      if (Object.values(report).some((n) => n > 0)) this.log?.info({ ...report }, 'partner notices sent');
    } finally {
      // Scheduled even when the run failed: the retry covers this run, the schedule must go on.
      await this.queue.schedule(PARTNER_NOTICES_QUEUE, {}, this.settings.intervalSeconds);
    }
  }
}
