import type { Kysely } from 'kysely';
import { newDonationReferenceId } from '../../domain/reference-ids.js';
import { debitFailure, nextAttemptDate } from '../../domain/recurring.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { Debit } from '../../infrastructure/db/schema-recurring.js';
import type { PaymentOutcome } from '../../infrastructure/payments/provider.js';
import { findShownDebit, hasOpenDebits, lockDebit, updateDebit } from '../../infrastructure/repositories/debits.js';
import { insertCollectedDonation } from '../../infrastructure/repositories/collected-donations.js';
import { lockMandate, updateProviderMandateStatus } from '../../infrastructure/repositories/mandates.js';
import { lockPlan, updatePlan } from '../../infrastructure/repositories/recurring-plans.js';
import { changeMandate } from '../mandates.js';
import { reverseDisputedDonation } from '../reversals/dispute.js';
import { recordEvent } from '../webhooks/record-event.js';
import { CANCEL_REASONS, cancelPlan } from './cancel.js';
import { SAMPLE_RECEIPT_POLICY, type ReceiptPolicy } from '../../config/receipts.js';
import { issueAtSettlement } from '../receipts/issue.js';
import type { RecurringPolicy } from './deps.js';
import { toDebitRecord } from './records.js';

/** What applying a provider's word about a payment did. */
export type OutcomeResult = 'applied' | 'stale' | 'unknown';

/** A debit and the try a payment was: the provider reports both (metadata, idempotency key). */
export interface DebitPaymentOutcome extends PaymentOutcome {
  debitId: string;
  attempt: number;
}

/** How far along a payment's story a status is: a later event may only move it on, never back. */
const rank = (status: string) => ({ processing: 1, succeeded: 2, failed: 2, disputed: 3 })[status] ?? 0;

/**
 * Applies what the provider says happened to a debit's payment, in one transaction, once and in order of truth:
 * an event about an earlier try, or older than the newest applied (a `processing` delivered after `succeeded`), is
 * stale and changes nothing. A success becomes a donation, settled at once; a failure is retried per the policy,
 * and after the last try makes the plan past_due, then canceled; a failure that ends the mandate cancels its plans.
 * Given a transaction it works in it (a provider webhook records its event in the same one), else it opens one.
 */
export async function applyDebitOutcome(
  db: Kysely<DB>,
  outcome: DebitPaymentOutcome,
  context: { policy: RecurringPolicy; today: string },
): Promise<OutcomeResult> {
  return inTransaction(db, async (trx) => {
    const debit = await lockDebit(trx, outcome.debitId);
    if (!debit) return 'unknown';
    if (isStale(debit, outcome)) return 'stale';
    const stamp = { provider_event_created: outcome.occurredAt };
    switch (outcome.status) {
      case 'processing':
        if (debit.status !== 'processing') return 'stale';
        await updateDebit(trx, debit.id, stamp);
        return 'applied';
      case 'succeeded':
        if (debit.status !== 'processing') return 'stale';
        await succeed(trx, debit, outcome, context.policy.receipts);
        return 'applied';
      case 'failed':
        if (debit.status !== 'processing') return 'stale';
        await fail(trx, debit, outcome, context);
        return 'applied';
      case 'disputed':
        if (debit.status !== 'succeeded' || debit.disputed_at !== null) return 'stale';
        await updateDebit(trx, debit.id, {
          ...stamp,
          disputed_at: new Date(outcome.occurredAt * 1000),
          dispute_reason: outcome.failure?.message ?? outcome.failure?.code ?? 'disputed by the account holder',
        });
        // The money went back through the bank: the donation is reversed by itself (docs/reversals.md).
        await reverseDisputed(trx, debit.id);
        return 'applied';
    }
  });
}

const inTransaction = <T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

function isStale(debit: Debit, outcome: DebitPaymentOutcome): boolean {
  if (outcome.attempt !== debit.attempts || outcome.paymentId !== debit.provider_payment_id) return true;
  const last = debit.provider_event_created === null ? null : Number(debit.provider_event_created);
  if (last === null || outcome.occurredAt > last) return false;
  return outcome.occurredAt < last || rank(outcome.status) <= rank(debit.status);
}

/** The collected debit becomes a donation of the partner, collected by the foundation and settled at once. */
async function succeed(trx: Kysely<DB>, debit: Debit, outcome: DebitPaymentOutcome, receipts?: ReceiptPolicy) {
  const at = new Date(outcome.occurredAt * 1000);
  const donationId = await insertCollectedDonation(trx, { debit, referenceId: newDonationReferenceId(), at });
  await updateDebit(trx, debit.id, {
    status: 'succeeded',
    settled_at: at,
    donation_id: donationId,
    failure_code: null,
    failure_message: null,
    provider_event_created: outcome.occurredAt,
  });
  const plan = debit.plan_id ? await lockPlan(trx, debit.plan_id) : undefined;
  let planStatus = plan?.status ?? null;
  if (plan && (plan.failed_in_a_row > 0 || plan.status === 'past_due')) {
    const status = plan.status === 'past_due' ? 'active' : plan.status;
    planStatus = (await updatePlan(trx, plan.id, { failed_in_a_row: 0, status })).status;
  }
  if (plan) planStatus = (await completeIfDone(trx, plan.id)) ?? planStatus;
  // Settled by the debit: receipted in the same transaction. The receipt counter and then the event's sequence
  // row are held until commit, so both come last, in that order
  // (docs/decisions/0051-receipt-counter-before-event-sequence.md).
  await issueAtSettlement(trx, { donationIds: [donationId] }, receipts ?? SAMPLE_RECEIPT_POLICY, at);
  await tell(trx, debit.id, 'recurring_donation.debit_succeeded', planStatus);
}

async function fail(
  trx: Kysely<DB>,
  debit: Debit,
  outcome: DebitPaymentOutcome,
  context: { policy: RecurringPolicy; today: string },
) {
  const failure = debitFailure(outcome.failure?.code, outcome.failure?.message);
  const next = nextAttemptDate(context.today, outcome.attempt, failure, context.policy.retryDelaysDays);
  await updateDebit(trx, debit.id, {
    status: 'failed',
    failure_code: failure.code,
    failure_message: failure.message,
    next_attempt_on: next,
    provider_event_created: outcome.occurredAt,
  });
  const plan = debit.plan_id ? await lockPlan(trx, debit.plan_id) : undefined;
  const open = plan?.status === 'active' || plan?.status === 'past_due';
  // After its last try the plan is past_due, or canceled once enough debits failed in a row; a mandate that ended
  // cancels it whatever the count. The debit's failure is told first, with the plan's status it leads to.
  const failedInARow = (plan?.failed_in_a_row ?? 0) + 1;
  const cancels =
    open && (failure.mandateEnded || (next === null && failedInARow >= context.policy.cancelAfterFailedDebits));
  let planStatus = plan?.status ?? null;
  if (cancels) planStatus = 'canceled';
  else if (plan && open && next === null) {
    planStatus = (await updatePlan(trx, plan.id, { failed_in_a_row: failedInARow, status: 'past_due' })).status;
    planStatus = (await completeIfDone(trx, plan.id)) ?? planStatus;
  }
  await tell(trx, debit.id, 'recurring_donation.debit_failed', planStatus);
  if (failure.mandateEnded) await endMandate(trx, debit.mandate_id, outcome.occurredAt);
  if (cancels && plan) await cancelPlan(trx, plan.id, CANCEL_REASONS.failedDebits);
}

async function reverseDisputed(trx: Kysely<DB>, debitId: string) {
  const shown = await findShownDebit(trx, debitId);
  if (shown?.donation_reference_id) await reverseDisputedDonation(trx, shown.donation_reference_id);
}

/** The bank says the mandate can no longer be debited: it is marked inactive, which cancels its plans. */
async function endMandate(trx: Kysely<DB>, mandateId: string, occurredAt: number) {
  const mandate = await lockMandate(trx, mandateId);
  if (!mandate || mandate.mandate_status === 'inactive') return;
  await changeMandate(trx, mandateId, () => updateProviderMandateStatus(trx, mandateId, 'inactive', occurredAt));
}

/** A plan whose schedule has ended is completed once none of its debits is open any more; its new status, if so. */
async function completeIfDone(trx: Kysely<DB>, planId: string): Promise<string | null> {
  const plan = await lockPlan(trx, planId);
  if (!plan || plan.next_due_date !== null || (plan.status !== 'active' && plan.status !== 'past_due')) return null;
  if (await hasOpenDebits(trx, planId)) return null;
  return (await updatePlan(trx, planId, { status: 'completed' })).status;
}

/** The partner is told of the debit as GET /recurring-donations/{id} shows it, in the same transaction. */
async function tell(
  trx: Kysely<DB>,
  debitId: string,
  type: 'recurring_donation.debit_succeeded' | 'recurring_donation.debit_failed',
  planStatus: string | null,
) {
  const shown = (await findShownDebit(trx, debitId))!;
  await recordEvent(trx, { partnerId: shown.partner_id, environment: shown.environment }, type, {
    debit: toDebitRecord(shown),
    recurringDonationStatus: planStatus,
  });
}
