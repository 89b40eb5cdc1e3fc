import { formatCents } from '../../domain/money.js';
import type { RecurringPlan } from '../../infrastructure/db/schema-recurring.js';
import type { ShownDebit } from '../../infrastructure/repositories/debits.js';
import type { DebitRecord, RecurringDonationRecord } from '../../contract/recurring.js';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A debit as partners see it (GET /recurring-donations/{id}, webhooks), with its donation's reference once collected. */
export function toDebitRecord(debit: ShownDebit): DebitRecord {
  return {
    debitId: debit.id,
    recurringDonationId: debit.plan_id,
    mandateId: debit.mandate_id,
    sequence: debit.sequence,
    transactionId: debit.transaction_id,
    amount: formatCents(Number(debit.amount_cents)),
    dueDate: debit.due_date,
    status: debit.status as DebitRecord['status'],
    attempts: debit.attempts,
    nextAttemptOn: debit.next_attempt_on,
    failure:
      debit.failure_code === null
        ? null
        : { code: debit.failure_code, message: debit.failure_message ?? debit.failure_code },
    donationReferenceId: debit.donation_reference_id,
    disputedAt: iso(debit.disputed_at),
    createdAt: iso(debit.created_at)!,
    updatedAt: iso(debit.updated_at)!,
  };
}

/** A plan as partners see it, with its debits. */
export function toPlanRecord(plan: RecurringPlan, debits: ShownDebit[]): RecurringDonationRecord {
  return {
    recurringDonationId: plan.id,
    mandateId: plan.mandate_id,
    fundraiserId: plan.fundraiser_id,
    amount: formatCents(Number(plan.amount_cents)),
    frequency: plan.frequency as RecurringDonationRecord['frequency'],
    startDate: plan.start_date,
    endDate: plan.end_date,
    numberOfDebits: plan.max_debits,
    partnerReference: plan.partner_reference,
    status: plan.status as RecurringDonationRecord['status'],
    nextDebitDate: plan.status === 'active' || plan.status === 'past_due' ? plan.next_due_date : null,
    canceledReason: plan.canceled_reason,
    createdAt: iso(plan.created_at)!,
    debits: debits.map(toDebitRecord),
  };
}
