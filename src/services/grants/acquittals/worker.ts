import type { Logger } from 'pino';
import { addDays, dateIn, startOfDate } from '../../../domain/calendar-date.js';
import type { Database } from '../../../infrastructure/db/connect.js';
import type { JobQueue } from '../../../infrastructure/queue/job-queue.js';
import { ACQUITTAL_REMINDERS_QUEUE } from '../../../infrastructure/queue/queues.js';
import { issueAdvices, type AdvicePolicy } from '../advice/issue.js';
import { sendAcquittalReminders, type ReminderTerms } from './reminders.js';

/** The hour of the foundation's day the daily run is due (its clubs' office hours). */
const RUN_HOUR = 9;

/**
 * The daily run of the acquittal-reminders queue (one at a time across every instance; each run schedules the next
 * day's): it reminds the acquittals coming due, and issues the advices that waited for a club's finance contact
 * (docs/decisions/0067-grant-advices-once-and-waiting.md). Both are once-only, so a run retried after a crash, or
 * racing another, sends nothing twice. Log lines carry counts, never an address.
 */
export class AcquittalRemindersWorker {
  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly settings: { reminders: ReminderTerms; advices: AdvicePolicy },
    private readonly now: () => Date,
    private readonly log?: Pick<Logger, 'info'>,
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') await this.queue.retryOrphanedJobs(ACQUITTAL_REMINDERS_QUEUE);
    await this.queue.work(ACQUITTAL_REMINDERS_QUEUE, { pollingIntervalSeconds: 60 }, () => this.runAndReschedule());
    // The first instance to start schedules a run now; afterwards the waiting next run makes this a no-op.
    await this.queue.schedule(ACQUITTAL_REMINDERS_QUEUE, {});
    this.queue.wake(ACQUITTAL_REMINDERS_QUEUE);
  }

  /** One run now, in this process (tests, operators). */
  async run(): Promise<{ reminded: number; advised: number }> {
    const reminded = await sendAcquittalReminders(this.database.db, this.now(), this.settings.reminders);
    const { advised } = await issueAdvices(this.database.db, { waiting: true }, this.settings.advices, this.now);
    return { reminded, advised };
  }

  private async runAndReschedule(): Promise<void> {
    try {
      const report = await this.run();
      if (report.reminded + report.advised > 0) this.log?.info(report, 'acquittal reminders and waiting advices');
    } finally {
      // Scheduled even when the run failed: the retry covers this run, the schedule must go on.
      const zone = this.settings.reminders.timeZone;
      const next = startOfDate(addDays(dateIn(this.now(), zone), 1), zone).getTime() + RUN_HOUR * 3_600_000;
      await this.queue.schedule(ACQUITTAL_REMINDERS_QUEUE, {}, Math.ceil((next - this.now().getTime()) / 1000));
    }
  }
}
