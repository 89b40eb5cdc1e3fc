import type { Logger } from 'pino';
import type { ReceiptPolicy } from '../../config/receipts.js';
import { addDays, startOfDate } from '../../domain/calendar-date.js';
import { financialYearDates, financialYearOf, previousFinancialYear } from '../../domain/financial-year.js';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue } from '../../infrastructure/queue/job-queue.js';
import { RECEIPT_STATEMENTS_QUEUE } from '../../infrastructure/queue/queues.js';
import { issueYearStatements } from './statements.js';

export interface StatementSettings {
  policy: ReceiptPolicy;
  production: boolean;
  /** RECEIPT_STATEMENT_DELAY_DAYS: how long after 30 June the year's statements are issued. */
  delayDays: number;
}

/**
 * The end-of-year statements, as a job of its own queue (one waiting run at a time across every instance): each
 * run issues the statements of the financial year that ended last (only those missing), then schedules the next
 * year's run, RECEIPT_STATEMENT_DELAY_DAYS after the next 30 June, in the foundation's time zone.
 */
export class ReceiptStatementsWorker {
  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly settings: StatementSettings,
    private readonly now: () => Date,
    private readonly log?: Pick<Logger, 'info'>,
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') await this.queue.retryOrphanedJobs(RECEIPT_STATEMENTS_QUEUE);
    await this.queue.work(RECEIPT_STATEMENTS_QUEUE, { pollingIntervalSeconds: 60 }, () => this.runAndReschedule());
    // The first instance to start schedules this year's run (at once when its day has passed: it issues only
    // what is missing); afterwards the waiting run makes this a no-op.
    await this.queue.schedule(RECEIPT_STATEMENTS_QUEUE, {}, this.secondsUntil(this.runDate(this.now())));
  }

  /** The statements of the financial year before the current one, now (what a run does); how many were issued. */
  async run(): Promise<{ year: string; issued: number }> {
    const year = previousFinancialYear(financialYearOf(this.now(), this.settings.policy.timeZone));
    const { issued } = await issueYearStatements(this.database.db, {
      year,
      policy: this.settings.policy,
      production: this.settings.production,
      requestedBy: 'statements job',
    });
    return { year, issued };
  }

  /** When the statements of the year before `instant`'s financial year are due. */
  private runDate(instant: Date): Date {
    const { first } = financialYearDates(financialYearOf(instant, this.settings.policy.timeZone));
    return startOfDate(addDays(first, this.settings.delayDays), this.settings.policy.timeZone);
  }

  private secondsUntil(at: Date): number {
    return Math.max(0, Math.ceil((at.getTime() - this.now().getTime()) / 1000));
  }

  private async runAndReschedule(): Promise<void> {
    try {
      const { year, issued } = await this.run();
      this.log?.info({ year, issued }, 'end-of-year statements issued');
    } finally {
      const { last } = financialYearDates(financialYearOf(this.now(), this.settings.policy.timeZone));
      const next = this.runDate(startOfDate(addDays(last, 1), this.settings.policy.timeZone));
      await this.queue.schedule(RECEIPT_STATEMENTS_QUEUE, {}, this.secondsUntil(next));
    }
  }
}
