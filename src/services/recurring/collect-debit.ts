import type { Debit } from '../../infrastructure/db/schema-recurring.js';
import type { Mandate } from '../../infrastructure/db/schema.js';
import { findDebit, markSubmitted } from '../../infrastructure/repositories/debits.js';
import { findMandate, setDebitDetails } from '../../infrastructure/repositories/mandates.js';
import { findPlan } from '../../infrastructure/repositories/recurring-plans.js';
import type { RecurringDeps } from './deps.js';
import { applyDebitOutcome } from './outcomes.js';
import { PartnerClocks } from './partner-clock.js';

export type CollectionResult = 'submitted' | 'not-due';

/**
 * Submits the due try of a debit to the payment provider: the provider call outside any transaction (never hold
 * one across a network call), then the submission recorded. The try's idempotency key makes a repeat of this
 * (a retried job after a crash between the two, a second instance) reach the same payment, and only one records
 * it. A debit that is not due any more (already submitted, settled, or closed) is left alone.
 */
export async function collectDebit(
  deps: RecurringDeps,
  debitId: string,
  clocks?: PartnerClocks,
): Promise<CollectionResult> {
  const { db } = deps;
  const debit = await findDebit(db, debitId);
  if (!debit) return 'not-due';
  const time = clocks ?? (await PartnerClocks.read(db, deps.now(), deps.timeZone));
  const today = time.todayOf(debit.partner_id);
  if (!isDue(debit, today) || !(await planStillOpen(deps, debit))) return 'not-due';
  const mandate = await debitableMandate(deps, debit.mandate_id);
  const attempt = debit.attempts + 1;
  const at = time.nowOf(debit.partner_id);
  const submission = await deps.provider.createDebit({
    debitId: debit.id,
    attempt,
    amountCents: Number(debit.amount_cents),
    partnerId: debit.partner_id,
    mandate: {
      id: mandate.id,
      customerId: mandate.provider_customer_id,
      paymentMethodId: mandate.provider_payment_method_id,
      providerMandateId: mandate.provider_mandate_id,
    },
    description: debit.plan_id
      ? `Recurring donation ${debit.plan_id}, debit ${debit.sequence}`
      : `Donation debit ${debit.id}`,
    metadata: {
      debitId: debit.id,
      attempt: String(attempt),
      ...(debit.plan_id ? { recurringDonationId: debit.plan_id } : {}),
    },
    at,
  });
  // One statement, atomic on its own: a transaction around it would only add two round trips.
  const recorded = await markSubmitted(db, debit.id, { attempt, paymentId: submission.paymentId, at });
  // A provider that answers at once (a debit refused on the spot) is applied as its webhook would be.
  if (recorded && submission.status !== 'processing')
    await applyDebitOutcome(
      db,
      {
        debitId: debit.id,
        attempt,
        paymentId: submission.paymentId,
        status: submission.status,
        failure: submission.failure,
        occurredAt: Math.floor(at.getTime() / 1000),
      },
      { policy: deps.policy, today },
    );
  return 'submitted';
}

function isDue(debit: Debit, today: string): boolean {
  if (debit.status === 'scheduled') return debit.due_date <= today;
  return debit.status === 'failed' && debit.next_attempt_on !== null && debit.next_attempt_on <= today;
}

/** A canceled plan's debits are closed when it is canceled; this guards the moment in between. */
async function planStillOpen(deps: RecurringDeps, debit: Debit): Promise<boolean> {
  if (!debit.plan_id) return true;
  const plan = await findPlan(deps.db, debit.plan_id);
  return plan?.status === 'active' || plan?.status === 'past_due' || plan?.status === 'completed';
}

/** The mandate with what the provider needs to debit it, read from the provider once if it was never kept. */
async function debitableMandate(deps: RecurringDeps, mandateId: string): Promise<Mandate> {
  const mandate = (await findMandate(deps.db, mandateId))!;
  if (!deps.provider.debitDetailsOf || mandate.provider_payment_method_id) return mandate;
  const details = await deps.provider.debitDetailsOf(mandate.id);
  await setDebitDetails(deps.db, mandate.id, details);
  return { ...mandate, provider_customer_id: details.customerId, provider_payment_method_id: details.paymentMethodId };
}
