import type { TSchema } from '@sinclair/typebox';
import type { Logger } from 'pino';
import { apiBaseUrl, reconciliationConcurrency, retryDelaysDays, type Config } from '../../config/index.js';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue } from '../../infrastructure/queue/job-queue.js';
import type { Payments } from '../../infrastructure/payments/select-provider.js';
import { mailPolicy } from '../../config/mail.js';
import { retentionPolicy } from '../../config/privacy.js';
import { receiptPolicy } from '../../config/receipts.js';
import { GrantRoundsWorker } from '../grants/rounds/schedule-worker.js';
import { roundTerms } from '../grants/rounds/terms.js';
import { AcquittalRemindersWorker } from '../grants/acquittals/worker.js';
import { GrantAdvicesWorker } from '../grants/advice/worker.js';
import { advicePolicy } from '../grants/advice/issue.js';
import { HousekeepingWorker } from '../housekeeping/worker.js';
import { mailContent } from '../mail/contents.js';
import { MailDeliveryWorker } from '../mail/worker.js';
import { PartnerNoticesWorker } from '../notices/worker.js';
import { PrivacyWorker } from '../privacy/worker.js';
import { ReceiptStatementsWorker } from '../receipts/statements-worker.js';
import { RecurringWorker } from '../recurring/worker.js';
import { ReconciliationWorker } from '../reconciliation/worker.js';
import { RequestLogPruneWorker } from '../request-log/prune-worker.js';
import type { WebhookSettings } from '../webhooks/settings.js';
import { WebhookDeliveryWorker } from '../webhooks/worker.js';
import {
  acquittalRemindersJob,
  debitCollectionJob,
  grantRoundsJob,
  grantAdvicesJob,
  housekeepingJob,
  mailDeliveryJob,
  partnerNoticesJob,
  privacyJob,
  receiptStatementsJob,
  reconciliationJob,
  requestLogPruneJob,
  webhookDeliveryJob,
  type JobDefinition,
} from './definitions.js';

/** What a job's worker is built from: one application context's collaborators. */
export interface JobDeps {
  config: Config;
  database: Database;
  queue: JobQueue;
  webhooks: WebhookSettings;
  /** The payment provider and the simulator, built on first use (only a worker that collects debits needs them). */
  payments: () => Payments;
  now?: () => Date;
  log?: Logger;
}

/** Works one job type's queue in this process. */
export interface JobWorker {
  start(): Promise<void>;
  stop?(): void;
  /** Runs every waiting job now, in this process (tests, operators); resolves with how many ran. */
  runPending?(options?: { now?: boolean }): Promise<number>;
}

export interface RegisteredJob<W extends JobWorker = JobWorker> extends JobDefinition<TSchema> {
  /** Builds the handler of this job type for one application context. */
  worker(deps: JobDeps): W;
}

const child = (log: Logger | undefined, component: string) => log?.child({ component });

/**
 * Every background job type of the service, declared once: its definition (name, payload schema, retry policy:
 * ./definitions.ts) with the worker that handles it. A new job type is a definition plus an entry here; the
 * composition root (src/composition.ts) builds and starts every worker listed.
 */
export const jobRegistry = {
  reconciliation: {
    ...reconciliationJob,
    worker: ({ config, database, queue, log }: JobDeps) =>
      new ReconciliationWorker(queue, database, {
        log: child(log, 'reconciliation'),
        apiBaseUrl: apiBaseUrl(config),
        concurrency: reconciliationConcurrency(config),
        receipts: receiptPolicy(config),
      }),
  },
  // The webhook worker also prunes events past EVENT_RETENTION_DAYS, hourly.
  webhookDelivery: {
    ...webhookDeliveryJob,
    worker: ({ database, queue, webhooks, log }: JobDeps) =>
      new WebhookDeliveryWorker(queue, database, webhooks, { log: child(log, 'webhooks') }),
  },
  // Prunes what only grows (expired idempotency keys, old counters, finished jobs); each run schedules the next.
  housekeeping: {
    ...housekeepingJob,
    worker: ({ config, database, queue, log }: JobDeps) =>
      new HousekeepingWorker(
        queue,
        database,
        {
          idempotencyRetentionHours: config.IDEMPOTENCY_RETENTION_HOURS,
          intervalSeconds: config.HOUSEKEEPING_INTERVAL_SECONDS,
          authFailureWindowSeconds: config.AUTH_FAILURE_WINDOW_SECONDS,
        },
        child(log, 'housekeeping'),
      ),
  },
  // Debits of recurring donations: the look for due work schedules itself; each try of a debit is a job.
  recurring: {
    ...debitCollectionJob,
    worker: ({ config, database, queue, payments, now, log }: JobDeps) =>
      new RecurringWorker(
        queue,
        database,
        () => {
          const { payments: provider, simulator } = payments();
          return {
            db: database.db,
            provider,
            simulator,
            policy: {
              retryDelaysDays: retryDelaysDays(config),
              cancelAfterFailedDebits: config.RECURRING_CANCEL_AFTER_FAILED_DEBITS,
              receipts: receiptPolicy(config),
            },
            timeZone: config.FOUNDATION_TIME_ZONE,
            now: now ?? (() => new Date()),
          };
        },
        {
          scanIntervalSeconds: config.RECURRING_SCAN_INTERVAL_SECONDS,
          collectionConcurrency: config.DEBIT_COLLECTION_CONCURRENCY,
        },
        child(log, 'recurring'),
      ),
  },
  // The mail outbox (receipts and their notices): one job per message, sent through SMTP_URL (docs/receipts.md).
  mail: {
    ...mailDeliveryJob,
    worker: ({ config, database, queue, log }: JobDeps) =>
      new MailDeliveryWorker(queue, database, mailPolicy(config), mailContent, child(log, 'mail')),
  },
  // The end-of-year statements of receipts: one run a year, after 30 June.
  receiptStatements: {
    ...receiptStatementsJob,
    worker: ({ config, database, queue, now, log }: JobDeps) =>
      new ReceiptStatementsWorker(
        queue,
        database,
        {
          policy: receiptPolicy(config),
          production: config.APP_ENV === 'production',
          delayDays: config.RECEIPT_STATEMENT_DELAY_DAYS,
        },
        now ?? (() => new Date()),
        child(log, 'receipts'),
      ),
  },
  // Scheduled notices to partners' contacts (docs/partners.md): rotations due or ending, the remittance digest.
  partnerNotices: {
    ...partnerNoticesJob,
    worker: ({ config, database, queue, now, log }: JobDeps) =>
      new PartnerNoticesWorker(
        queue,
        database,
        {
          periodDays: config.CREDENTIAL_ROTATION_PERIOD_DAYS,
          timeZone: config.FOUNDATION_TIME_ZONE,
          intervalSeconds: config.PARTNER_NOTICE_INTERVAL_SECONDS,
        },
        now ?? (() => new Date()),
        child(log, 'notices'),
      ),
  },
  // Grant rounds drafted on GRANT_SCHEDULE's days (docs/grants.md): one run waiting for the next scheduled day.
  grantRounds: {
    ...grantRoundsJob,
    worker: ({ config, database, queue, now, log }: JobDeps) =>
      new GrantRoundsWorker(queue, database, roundTerms(config), now ?? (() => new Date()), child(log, 'grants')),
  },
  // De-identification of donor details past DONOR_DATA_RETENTION_YEARS and mail bodies past MAIL_BODY_RETENTION_DAYS.
  privacy: {
    ...privacyJob,
    worker: ({ config, database, queue, now, log }: JobDeps) =>
      new PrivacyWorker(
        queue,
        database,
        {
          ...retentionPolicy(config),
          batchSize: config.PRIVACY_BATCH_SIZE,
          intervalSeconds: config.PRIVACY_INTERVAL_SECONDS,
        },
        now ?? (() => new Date()),
        child(log, 'privacy'),
      ),
  },
  // The remittance advices (and RCTIs) of each paid grant round (docs/grants.md, "Advice and RCTI").
  grantAdvices: {
    ...grantAdvicesJob,
    worker: ({ config, database, queue, now, log }: JobDeps) =>
      new GrantAdvicesWorker(queue, database, advicePolicy(config), now ?? (() => new Date()), child(log, 'grants')),
  },
  // Daily: reminders of acquittals coming due, and advices that waited for a club's finance contact.
  acquittalReminders: {
    ...acquittalRemindersJob,
    worker: ({ config, database, queue, now, log }: JobDeps) =>
      new AcquittalRemindersWorker(
        queue,
        database,
        {
          reminders: {
            reminderDays: config.ACQUITTAL_REMINDER_DAYS,
            timeZone: config.FOUNDATION_TIME_ZONE,
            foundation: receiptPolicy(config).issuer.legalName,
          },
          advices: advicePolicy(config),
        },
        now ?? (() => new Date()),
        child(log, 'grants'),
      ),
  },
  // Hourly: the partner request log's rows past PARTNER_REQUEST_LOG_DAYS, deleted in chunks.
  requestLogPrune: {
    ...requestLogPruneJob,
    worker: ({ config, database, queue, now, log }: JobDeps) =>
      new RequestLogPruneWorker(
        queue,
        database,
        config.PARTNER_REQUEST_LOG_DAYS,
        now ?? (() => new Date()),
        child(log, 'request-log'),
      ),
  },
} satisfies Record<string, RegisteredJob>;

export type JobWorkers = { [K in keyof typeof jobRegistry]: ReturnType<(typeof jobRegistry)[K]['worker']> };

/** One worker per registered job type, for one application context. */
export function buildJobWorkers(deps: JobDeps): JobWorkers {
  const entries = Object.entries(jobRegistry) as [keyof JobWorkers, RegisteredJob][];
  return Object.fromEntries(entries.map(([key, job]) => [key, job.worker(deps)])) as JobWorkers;
}
