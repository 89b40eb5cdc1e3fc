import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import type { RecurringPlan } from '../../infrastructure/db/schema-recurring.js';
import { debitsOfPlans, openDebitsOfPlan, updateDebit } from '../../infrastructure/repositories/debits.js';
import { lockPlan, openPlansOfMandate, updatePlan } from '../../infrastructure/repositories/recurring-plans.js';
import { recordEvent } from '../webhooks/record-event.js';
import { toPlanRecord } from './records.js';

/** Why a plan was canceled, as partners read it in `canceledReason`. */
export const CANCEL_REASONS = {
  partner: 'Canceled by the partner',
  operator: 'Canceled by the foundation',
  mandateEnded: 'The mandate can no longer be debited',
  failedDebits: 'Debits failed after their last try',
} as const;

/**
 * Inside the caller's transaction: cancels an open plan. Debits not submitted yet are closed (failed, without a
 * next try); one already with the bank goes on to its outcome. Partners are told (`recurring_donation.canceled`).
 * Returns the plan as it is afterwards (unchanged when it was no longer open).
 */
export async function cancelPlan(trx: Kysely<DB>, planId: string, reason: string): Promise<RecurringPlan | null> {
  const plan = await lockPlan(trx, planId);
  if (!plan) return null;
  if (plan.status === 'canceled' || plan.status === 'completed') return plan;
  const canceled = await updatePlan(trx, planId, {
    status: 'canceled',
    canceled_reason: reason,
    canceled_at: new Date(),
    next_due_date: null,
  });
  for (const debit of await openDebitsOfPlan(trx, planId))
    await updateDebit(trx, debit.id, {
      status: 'failed',
      next_attempt_on: null,
      ...(debit.status === 'scheduled'
        ? {
            failure_code: 'canceled',
            failure_message: 'The recurring donation was canceled before this debit was collected',
          }
        : {}),
    });
  await recordEvent(trx, { partnerId: plan.partner_id, environment: plan.environment }, 'recurring_donation.canceled', {
    recurringDonation: toPlanRecord(canceled, await debitsOfPlans(trx, [planId])),
  });
  return canceled;
}

/** Inside the caller's transaction: cancels every open plan of a mandate that can no longer be debited. */
export async function cancelPlansOfMandate(trx: Kysely<DB>, mandateId: string): Promise<number> {
  const plans = await openPlansOfMandate(trx, mandateId);
  for (const plan of plans) await cancelPlan(trx, plan.id, CANCEL_REASONS.mandateEnded);
  return plans.length;
}
