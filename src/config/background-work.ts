import { availableParallelism } from 'node:os';
import { Type } from '@sinclair/typebox';

/** Background work: how much reconciliation one instance runs, and what housekeeping prunes and how often. */
export const BackgroundWorkSettings = {
  RECONCILIATION_CONCURRENCY: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 64,
      description:
        'Remittance batches one instance reconciles at once (each holds a database connection while it runs). ' +
        'Default: twice the CPU count, at most half of DB_POOL_MAX, at least 2 (reconciliationConcurrency()).',
    }),
  ),
  REMITTANCE_BACKLOG_MAX_BATCHES: Type.Integer({
    minimum: 0,
    default: 2000,
    description:
      'POST /remittances answers 503 FUNDRAISER:REMITTANCE_BACKLOG while this many batches (of every partner) wait ' +
      'for or undergo reconciliation, dead-lettered ones aside. 0: no bound on the count ' +
      '(docs/decisions/0081-remittance-backlog-refused-at-the-door.md).',
  }),
  REMITTANCE_BACKLOG_MAX_AGE_SECONDS: Type.Integer({
    minimum: 0,
    default: 60,
    description:
      'POST /remittances answers 503 FUNDRAISER:REMITTANCE_BACKLOG while the oldest batch not yet taken by a ' +
      'reconciliation worker has waited this long. 0: no bound on the age.',
  }),
  REMITTANCE_BACKLOG_RETRY_AFTER_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 10,
    description: 'The Retry-After of a batch refused while reconciliation catches up.',
  }),
  IDEMPOTENCY_RETENTION_HOURS: Type.Integer({
    minimum: 1,
    default: 24,
    description:
      "Idempotency-Key records are kept this long; a retry after that is a new request. The donations' natural key (transaction.id) is never pruned.",
  }),
  HOUSEKEEPING_INTERVAL_SECONDS: Type.Integer({
    minimum: 10,
    default: 900,
    description: 'How often one instance runs housekeeping (expired idempotency keys, stale counters, finished jobs).',
  }),
  FINISHED_JOB_RETENTION_HOURS: Type.Integer({
    minimum: 1,
    default: 24,
    description: 'Finished background jobs stay in the job table this long, then move to the job archive.',
  }),
  JOB_ARCHIVE_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    default: 7,
    description: 'Archived jobs are deleted after this many days.',
  }),
};

/**
 * Batches reconciled at once per instance. A run is mostly waiting on the database (round trips, commits), so two
 * per core keep the CPU busy; half the pool at most leaves the other half to requests.
 */
export function reconciliationConcurrency(config: {
  RECONCILIATION_CONCURRENCY?: number;
  DB_POOL_MAX: number;
}): number {
  if (config.RECONCILIATION_CONCURRENCY) return config.RECONCILIATION_CONCURRENCY;
  return Math.max(2, Math.min(2 * availableParallelism(), Math.floor(config.DB_POOL_MAX / 2)));
}
