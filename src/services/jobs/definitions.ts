import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import { enqueueInTransaction } from '../../infrastructure/queue/enqueue.js';
import {
  ACQUITTAL_REMINDERS_QUEUE,
  DEBIT_COLLECTION_QUEUE,
  GRANT_ROUNDS_QUEUE,
  GRANT_ADVICES_QUEUE,
  HOUSEKEEPING_QUEUE,
  MAIL_DELIVERY_QUEUE,
  PARTNER_NOTICES_QUEUE,
  PRIVACY_QUEUE,
  QUEUE_POLICIES,
  RECEIPT_STATEMENTS_QUEUE,
  RECONCILIATION_QUEUE,
  REQUEST_LOG_QUEUE,
  WEBHOOK_DELIVERY_QUEUE,
  type QueueName,
  type QueuePolicy,
} from '../../infrastructure/queue/queues.js';

/**
 * What a background job type is: its queue, the shape of its payload (checked when enqueued) and how it is
 * retried. How it is worked is paired with it in ./registry.ts; this module has no handler so that the services
 * that enqueue (deep inside reconciliation and webhooks) can import it without importing the workers.
 */
export interface JobDefinition<S extends TSchema> {
  name: QueueName;
  payload: S;
  /** The queue's retry policy (infrastructure/queue/queues.ts, which creates the queues with it). */
  retry: QueuePolicy;
}

export const reconciliationJob = {
  name: RECONCILIATION_QUEUE,
  payload: Type.Object({ batchId: Type.String() }, { additionalProperties: false }),
  retry: QUEUE_POLICIES[RECONCILIATION_QUEUE],
} satisfies JobDefinition<TSchema>;
export type ReconciliationJob = Static<typeof reconciliationJob.payload>;

/** One job per delivery attempt: the webhook retry schedule enqueues the next attempt with a start time. */
export const webhookDeliveryJob = {
  name: WEBHOOK_DELIVERY_QUEUE,
  payload: Type.Object({ deliveryId: Type.String() }, { additionalProperties: false }),
  retry: QUEUE_POLICIES[WEBHOOK_DELIVERY_QUEUE],
} satisfies JobDefinition<TSchema>;
export type DeliveryJob = Static<typeof webhookDeliveryJob.payload>;

/** One waiting run at a time across every instance (the queue is stately); each run schedules the next. */
export const housekeepingJob = {
  name: HOUSEKEEPING_QUEUE,
  payload: Type.Object({}, { additionalProperties: false }),
  retry: QUEUE_POLICIES[HOUSEKEEPING_QUEUE],
} satisfies JobDefinition<TSchema>;

/** Submits the due try of one debit to the payment provider (docs/recurring.md). */
export const debitCollectionJob = {
  name: DEBIT_COLLECTION_QUEUE,
  payload: Type.Object({ debitId: Type.String() }, { additionalProperties: false }),
  retry: QUEUE_POLICIES[DEBIT_COLLECTION_QUEUE],
} satisfies JobDefinition<TSchema>;
export type DebitCollectionJob = Static<typeof debitCollectionJob.payload>;

/** Sends one message of the mail outbox (services/mail, docs/receipts.md). */
export const mailDeliveryJob = {
  name: MAIL_DELIVERY_QUEUE,
  payload: Type.Object({ messageId: Type.String() }, { additionalProperties: false }),
  retry: QUEUE_POLICIES[MAIL_DELIVERY_QUEUE],
} satisfies JobDefinition<TSchema>;
export type MailDeliveryJob = Static<typeof mailDeliveryJob.payload>;

/** Issues the end-of-year statements of the financial year just ended; each run schedules the next year's. */
export const receiptStatementsJob = {
  name: RECEIPT_STATEMENTS_QUEUE,
  payload: Type.Object({}, { additionalProperties: false }),
  retry: QUEUE_POLICIES[RECEIPT_STATEMENTS_QUEUE],
} satisfies JobDefinition<TSchema>;

/** Looks for the scheduled partner notices due (services/notices); each run schedules the next. */
export const partnerNoticesJob = {
  name: PARTNER_NOTICES_QUEUE,
  payload: Type.Object({}, { additionalProperties: false }),
  retry: QUEUE_POLICIES[PARTNER_NOTICES_QUEUE],
} satisfies JobDefinition<TSchema>;

/** Drafts the round of the scheduled day due (services/grants/rounds); each run schedules the next. */
export const grantRoundsJob = {
  name: GRANT_ROUNDS_QUEUE,
  payload: Type.Object({}, { additionalProperties: false }),
  retry: QUEUE_POLICIES[GRANT_ROUNDS_QUEUE],
} satisfies JobDefinition<TSchema>;

/** De-identifies what outlived its retention (services/privacy, docs/privacy.md); each run schedules the next. */
export const privacyJob = {
  name: PRIVACY_QUEUE,
  payload: Type.Object({}, { additionalProperties: false }),
  retry: QUEUE_POLICIES[PRIVACY_QUEUE],
} satisfies JobDefinition<TSchema>;

/** Issues the remittance advices (and RCTIs) of one paid grant round (services/grants/advice). */
export const grantAdvicesJob = {
  name: GRANT_ADVICES_QUEUE,
  payload: Type.Object({ roundId: Type.String() }, { additionalProperties: false }),
  retry: QUEUE_POLICIES[GRANT_ADVICES_QUEUE],
} satisfies JobDefinition<TSchema>;
export type GrantAdvicesJob = Static<typeof grantAdvicesJob.payload>;

/** Reminds clubs of acquittals coming due (services/grants/acquittals); each run schedules the next day's. */
export const acquittalRemindersJob = {
  name: ACQUITTAL_REMINDERS_QUEUE,
  payload: Type.Object({}, { additionalProperties: false }),
  retry: QUEUE_POLICIES[ACQUITTAL_REMINDERS_QUEUE],
} satisfies JobDefinition<TSchema>;

/** Prunes the partner request log past PARTNER_REQUEST_LOG_DAYS (services/request-log); each run schedules the next. */
export const requestLogPruneJob = {
  name: REQUEST_LOG_QUEUE,
  payload: Type.Object({}, { additionalProperties: false }),
  retry: QUEUE_POLICIES[REQUEST_LOG_QUEUE],
} satisfies JobDefinition<TSchema>;

/**
 * Enqueues a job of `type` in the caller's open transaction (it exists if and only if that commits). A payload
 * that does not match the type's schema is a programming error, refused before it reaches the queue.
 */
export function enqueueJob<S extends TSchema>(
  trx: Kysely<DB>,
  type: JobDefinition<S>,
  payload: Static<S>,
  options: { startAfterSeconds?: number } = {},
): Promise<string> {
  if (!Value.Check(type.payload, payload)) throw new Error(`invalid payload for job ${type.name}`);
  return enqueueInTransaction(trx, type.name, payload as object, options);
}
