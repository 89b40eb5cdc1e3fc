import type { Kysely } from 'kysely';
import { randomBase32 } from '../../domain/reference-ids.js';
import { scheduledDate, type Frequency } from '../../domain/recurring.js';
import type { CalendarDate } from '../../domain/calendar-date.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { RecurringPlan } from '../../infrastructure/db/schema-recurring.js';
import { insertPlanDebitOnce } from '../../infrastructure/repositories/debits.js';
import { lockPlan, updatePlan } from '../../infrastructure/repositories/recurring-plans.js';
import { enqueueJob, debitCollectionJob } from '../jobs/definitions.js';

export const newDebitId = () => `DBT-${randomBase32(16)}`;

const scheduleOf = (plan: RecurringPlan) => ({
  startDate: plan.start_date,
  frequency: plan.frequency as Frequency,
  endDate: plan.end_date,
  maxDebits: plan.max_debits,
});

/** The date of the plan's first debit, or null when its end leaves room for none. */
export const firstDueDate = (plan: RecurringPlan): CalendarDate | null => scheduledDate(scheduleOf(plan), 0);

/**
 * Inside the caller's transaction: creates every debit of the plan due by `today` that does not exist yet, each with
 * its collection job, and moves the plan's next date on (or completes it). The plan row is locked, and each debit's
 * (plan, date) is unique, so however many instances run this, each debit is created once. Returns how many it made.
 */
export async function createDueDebits(trx: Kysely<DB>, planId: string, today: CalendarDate): Promise<number> {
  const plan = await lockPlan(trx, planId);
  if (!plan || (plan.status !== 'active' && plan.status !== 'past_due')) return 0;
  let index = plan.debits_scheduled;
  let next = plan.next_due_date;
  let created = 0;
  while (next !== null && next <= today) {
    const id = newDebitId();
    const inserted = await insertPlanDebitOnce(trx, {
      id,
      partner_id: plan.partner_id,
      environment: plan.environment,
      is_live: plan.is_live,
      mandate_id: plan.mandate_id,
      plan_id: plan.id,
      sequence: index + 1,
      transaction_id: null,
      amount_cents: Number(plan.amount_cents),
      due_date: next,
      correlation_id: plan.correlation_id,
      request_hash: null,
      queued_attempt: 1,
    });
    if (inserted) {
      await enqueueJob(trx, debitCollectionJob, { debitId: id });
      created += 1;
    }
    index += 1;
    next = scheduledDate(scheduleOf(plan), index);
  }
  // Without a next date the schedule has ended; the plan is completed once its last debit is settled (outcomes.ts).
  if (index !== plan.debits_scheduled) await updatePlan(trx, plan.id, { debits_scheduled: index, next_due_date: next });
  return created;
}
