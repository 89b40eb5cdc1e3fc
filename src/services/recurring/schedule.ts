import type { Insertable, Kysely } from 'kysely';
import { randomBase32 } from '../../domain/reference-ids.js';
import { scheduledDate, type Frequency } from '../../domain/recurring.js';
import type { CalendarDate } from '../../domain/calendar-date.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { DebitsTable, RecurringPlan } from '../../infrastructure/db/schema-recurring.js';
import { insertPlanDebitsOnce } from '../../infrastructure/repositories/debits.js';
import { lockPlans, movePlansOn } from '../../infrastructure/repositories/recurring-plans.js';
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
 * Without `enqueue` (the sandbox clock's walk, which submits the debits itself at once) no job is enqueued and the
 * debits are left unqueued: if the walk ends before submitting them, the next scan enqueues their tries.
 */
export function createDueDebits(
  trx: Kysely<DB>,
  planId: string,
  today: CalendarDate,
  options: { enqueue?: boolean } = {},
): Promise<number> {
  return createDueDebitsOfPlans(trx, [planId], today, options);
}

/**
 * The same for many plans with three statements, whatever their number (lock them, insert their debits, move them
 * on), rather than three per plan: a season's morning of due debits is thousands of plans at once.
 */
export async function createDueDebitsOfPlans(
  trx: Kysely<DB>,
  planIds: string[],
  today: CalendarDate,
  { enqueue = true }: { enqueue?: boolean } = {},
): Promise<number> {
  const debits: Insertable<DebitsTable>[] = [];
  const moved: { id: string; debitsScheduled: number; nextDueDate: CalendarDate | null }[] = [];
  for (const plan of await lockPlans(trx, planIds)) {
    if (plan.status !== 'active' && plan.status !== 'past_due') continue;
    let index = plan.debits_scheduled;
    let next = plan.next_due_date;
    while (next !== null && next <= today) {
      debits.push({
        id: newDebitId(),
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
        queued_attempt: enqueue ? 1 : 0,
      });
      index += 1;
      next = scheduledDate(scheduleOf(plan), index);
    }
    // Without a next date the schedule has ended; the plan is completed once its last debit is settled (outcomes.ts).
    if (index !== plan.debits_scheduled) moved.push({ id: plan.id, debitsScheduled: index, nextDueDate: next });
  }
  const inserted = await insertPlanDebitsOnce(trx, debits);
  if (enqueue) for (const id of inserted) await enqueueJob(trx, debitCollectionJob, { debitId: id });
  await movePlansOn(trx, moved);
  return inserted.length;
}
