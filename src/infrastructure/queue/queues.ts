/** Every durable job queue of the service, and how its jobs are retried. */

export interface QueuePolicy {
  /** Retries after the first attempt; then the job fails for good and goes to `deadLetter`. */
  retryLimit: number;
  /** Seconds before the first retry; with backoff, each retry waits about twice as long (with jitter). */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /**
   * An active job older than this is taken for lost (its worker crashed) and retried by queue maintenance. It must
   * comfortably exceed the longest run; a run that outlives it is retried while still running, which the job
   * handler must tolerate (reconciliation does: see services/reconciliation).
   */
  expireInSeconds: number;
  deadLetter?: QueueName;
  /**
   * An enqueue (due at once) also notifies the other instances, so their idle workers take the job within
   * milliseconds rather than at their next poll. NOTIFY orders the commits of the transactions that send it, so
   * queues enqueued on a hot path (webhook deliveries, one per donation event) rely on their 1 s poll instead.
   */
  wakeOtherInstances?: boolean;
  /** At most one job waiting and one running (pg-boss's `stately` policy): a schedule that must not pile up. */
  oneAtATime?: boolean;
}

export const RECONCILIATION_QUEUE = 'remittance-reconciliation';
export const RECONCILIATION_HEARTBEAT_SECONDS = 2;
/** A running reconciliation whose heartbeat is older than this is taken for dead (four heartbeats missed). */
export const RECONCILIATION_STALE_SECONDS = 8;
export const RECONCILIATION_DEAD_LETTER_QUEUE = 'remittance-reconciliation-dead-letter';
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';
export const HOUSEKEEPING_QUEUE = 'housekeeping';
export const RECURRING_SCAN_QUEUE = 'recurring-scan';
/** Seconds between heartbeats of a running recurring-scan or debit-collection job (its expiry is a few of them). */
export const RECURRING_HEARTBEAT_SECONDS = 2;
export const DEBIT_COLLECTION_QUEUE = 'debit-collection';
export const MAIL_DELIVERY_QUEUE = 'mail-delivery';
export const MAIL_HEARTBEAT_SECONDS = 2;
export const RECEIPT_STATEMENTS_QUEUE = 'receipt-statements';
export const PARTNER_NOTICES_QUEUE = 'partner-notices';
export const GRANT_ROUNDS_QUEUE = 'grant-rounds';
export const PRIVACY_QUEUE = 'privacy-deidentify';
export const GRANT_ADVICES_QUEUE = 'grant-advices';
export const ACQUITTAL_REMINDERS_QUEUE = 'acquittal-reminders';
export const REQUEST_LOG_QUEUE = 'partner-request-log';
export type QueueName =
  | typeof RECONCILIATION_QUEUE
  | typeof RECONCILIATION_DEAD_LETTER_QUEUE
  | typeof WEBHOOK_DELIVERY_QUEUE
  | typeof HOUSEKEEPING_QUEUE
  | typeof RECURRING_SCAN_QUEUE
  | typeof DEBIT_COLLECTION_QUEUE
  | typeof MAIL_DELIVERY_QUEUE
  | typeof RECEIPT_STATEMENTS_QUEUE
  | typeof PARTNER_NOTICES_QUEUE
  | typeof GRANT_ROUNDS_QUEUE
  | typeof PRIVACY_QUEUE
  | typeof GRANT_ADVICES_QUEUE
  | typeof ACQUITTAL_REMINDERS_QUEUE
  | typeof REQUEST_LOG_QUEUE;

/** In creation order: a dead-letter queue exists before the queue that names it. */
export const QUEUE_POLICIES: Record<QueueName, QueuePolicy> = {
  [RECONCILIATION_DEAD_LETTER_QUEUE]: {
    retryLimit: 10,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 60,
  },
  // 6 attempts over roughly 5 to 10 minutes (5 s, 10 s, 20 s, 40 s, 80 s before each retry, up to twice that).
  // pg-boss's worker fails a job whose handler runs longer than its expiry, heartbeat or not, so the expiry is the
  // longest run allowed. A dead run is found by the workers instead (services/reconciliation/worker.ts): on
  // PostgreSQL, by its batch's row lock, released when its connection closes, or by a heartbeat older than
  // RECONCILIATION_STALE_SECONDS; on the embedded database, at the start of the only process. It is retried at once.
  [RECONCILIATION_QUEUE]: {
    retryLimit: 5,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 900,
    deadLetter: RECONCILIATION_DEAD_LETTER_QUEUE,
    wakeOtherInstances: true,
  },
  // One job per delivery attempt: the webhook retry schedule (WEBHOOK_RETRY_SCHEDULE) is applied by enqueuing the
  // next attempt's job with a start time, not by these retries. These only cover a run that crashed or could not
  // reach the database; an attempt's HTTP call is bounded by WEBHOOK_TIMEOUT_MS, far below the expiry.
  [WEBHOOK_DELIVERY_QUEUE]: {
    retryLimit: 10,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 120,
  },
  // Pruning, run every HOUSEKEEPING_INTERVAL_SECONDS by one instance (services/housekeeping). Each run schedules
  // the next; a failed run is retried a few times, and every start of an instance schedules one if none waits.
  [HOUSEKEEPING_QUEUE]: {
    retryLimit: 3,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 900,
    oneAtATime: true,
  },
  // The look for plans with a debit due and failed debits due for another try (services/recurring), one run at a
  // time across every instance, every RECURRING_SCAN_INTERVAL_SECONDS; each run schedules the next. A running run's
  // heartbeat keeps it alive however long it takes, so the expiry is short: a run whose instance was killed does not
  // hold the one-at-a-time slot (and every due debit) for long.
  [RECURRING_SCAN_QUEUE]: {
    retryLimit: 3,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 10,
    oneAtATime: true,
  },
  // One job per try of a debit. A job that crashed after the provider call and before its commit is retried and
  // reaches the same payment (the try's idempotency key), so a debit is never submitted twice. With the heartbeat,
  // the debits of a killed instance are retried about expiry + maintenance + first delay (10 + 2 + 5 s) later.
  [DEBIT_COLLECTION_QUEUE]: {
    retryLimit: 10,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 10,
    wakeOtherInstances: true,
  },
  // One job per message of the mail outbox (services/mail): 9 attempts over about 20 minutes (5 s doubling, with
  // jitter) for an SMTP server that is down or answers 4xx; a 5xx answer fails the message for good without retry.
  // A running send's heartbeat (MAIL_HEARTBEAT_SECONDS) keeps it alive, so a job whose instance was killed in the
  // middle of sending is retried within about expiry + maintenance + first delay (10 + 2 + 5 s).
  [MAIL_DELIVERY_QUEUE]: {
    retryLimit: 8,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 10,
  },
  // The end-of-year statements (services/receipts/statements-worker.ts): one run waiting for the next 1 July plus
  // RECEIPT_STATEMENT_DELAY_DAYS, one at a time across every instance; each run schedules the next year's.
  [RECEIPT_STATEMENTS_QUEUE]: {
    retryLimit: 5,
    retryDelaySeconds: 300,
    retryBackoff: true,
    expireInSeconds: 1800,
    oneAtATime: true,
  },
  // The look for scheduled partner notices due (services/notices/worker.ts), one run at a time across every
  // instance, every PARTNER_NOTICE_INTERVAL_SECONDS; each run schedules the next. Each notice has a once-key, so a
  // run retried after a crash sends nothing twice.
  [PARTNER_NOTICES_QUEUE]: {
    retryLimit: 3,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 900,
    oneAtATime: true,
  },
  // The grant rounds' schedule (services/grants/rounds/schedule-worker.ts): one run waiting for the next scheduled
  // day, one at a time across every instance; each run schedules the next. The scheduled day is unique among rounds,
  // so a run retried after a crash drafts nothing twice. Drafting a large round takes seconds, far below the expiry.
  [GRANT_ROUNDS_QUEUE]: {
    retryLimit: 5,
    retryDelaySeconds: 300,
    retryBackoff: true,
    expireInSeconds: 1800,
    oneAtATime: true,
  },
  // The de-identification of what outlived its retention (services/privacy), one run at a time across every instance,
  // every PRIVACY_INTERVAL_SECONDS; each run schedules the next. A run stops within its time budget (well inside the
  // expiry) and schedules its continuation at once; every batch commits with its cursor, so a killed run loses at
  // most one batch's work, which the retry or the next run does again without doing anything twice.
  [PRIVACY_QUEUE]: {
    retryLimit: 3,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 900,
    oneAtATime: true,
  },
  // The remittance advices of a paid round (services/grants/advice): one job per round, enqueued when it is marked
  // paid. Each grant is advised once (grants.advised_at, set in the transaction that writes its messages), so a run
  // retried after a crash, or racing another, advises only what is left.
  [GRANT_ADVICES_QUEUE]: {
    retryLimit: 8,
    retryDelaySeconds: 10,
    retryBackoff: true,
    expireInSeconds: 900,
  },
  // The daily look for acquittals to remind (services/grants/acquittals), one run at a time across every instance;
  // each run schedules the next day's. Each reminder is sent once (grant_acquittals.reminded_at).
  [ACQUITTAL_REMINDERS_QUEUE]: {
    retryLimit: 3,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 900,
    oneAtATime: true,
  },
  // The pruning of the partner request log (services/request-log/prune-worker.ts): one run at a time across every
  // instance, hourly; each run schedules the next. Deleting what is past PARTNER_REQUEST_LOG_DAYS twice deletes
  // nothing twice, so a retried run is harmless.
  [REQUEST_LOG_QUEUE]: {
    retryLimit: 3,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 900,
    oneAtATime: true,
  },
};
