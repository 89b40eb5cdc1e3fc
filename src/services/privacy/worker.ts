import type { Logger } from 'pino';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue } from '../../infrastructure/queue/job-queue.js';
import { PRIVACY_QUEUE } from '../../infrastructure/queue/queues.js';
import { deidentifyDue, type DeidentifyReport, type DeidentifySettings } from './deidentify.js';

export interface PrivacyWorkerSettings extends DeidentifySettings {
  /** PRIVACY_INTERVAL_SECONDS: between two runs. */
  intervalSeconds: number;
}

/** A run stops after this long and continues in a new job: well inside the queue's expiry (900 s). */
const RUN_BUDGET_MS = 300_000;

/**
 * The de-identification of what outlived its retention as a job of its own queue: one run at a time across every
 * instance (the queue is stately), each scheduling the next. Log lines carry counts, never a name or an address.
 */
export class PrivacyWorker {
  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly settings: PrivacyWorkerSettings,
    private readonly now: () => Date,
    private readonly log?: Pick<Logger, 'info'>,
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') await this.queue.retryOrphanedJobs(PRIVACY_QUEUE);
    await this.queue.work(PRIVACY_QUEUE, { pollingIntervalSeconds: 30 }, () => this.runAndReschedule());
    // The first instance to start schedules a run now; afterwards the waiting next run makes this a no-op.
    await this.queue.schedule(PRIVACY_QUEUE, {});
  }

  /** One run now, in this process (tests, operators). */
  run(budgetMs?: number): Promise<DeidentifyReport> {
    return deidentifyDue(this.database.db, this.settings, this.now(), budgetMs);
  }

  private async runAndReschedule(): Promise<void> {
    let finished = true;
    try {
      const report = await this.run(RUN_BUDGET_MS);
      finished = report.finished;
      const { finished: _, ...counts } = report;
      if (Object.values(counts).some((n) => n > 0)) this.log?.info({ ...counts, finished }, 'de-identification done');
    } finally {
      // Scheduled even when the run failed: the retry covers this run, the schedule must go on.
      await this.queue.schedule(PRIVACY_QUEUE, {}, finished ? this.settings.intervalSeconds : 1);
    }
  }
}
