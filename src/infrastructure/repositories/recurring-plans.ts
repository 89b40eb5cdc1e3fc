import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { DB } from '../db/schema.js';
import type { RecurringPlan, RecurringPlansTable } from '../db/schema-recurring.js';

/**
 * Inserts a plan unless the partner's reference already names one (its natural key); returns the stored plan and
 * whether this call created it.
 */
export async function insertPlanOnce(
  db: Kysely<DB>,
  plan: Insertable<RecurringPlansTable>,
): Promise<{ plan: RecurringPlan; created: boolean }> {
  const inserted = await db
    .insertInto('recurring_plans')
    .values(plan)
    .onConflict((oc) =>
      oc
        .columns(['partner_id', 'environment', 'partner_reference'])
        .where('partner_reference', 'is not', null)
        .doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { plan: inserted, created: true };
  const existing = await db
    .selectFrom('recurring_plans')
    .selectAll()
    .where('partner_id', '=', plan.partner_id)
    .where('environment', '=', plan.environment)
    .where('partner_reference', '=', plan.partner_reference ?? null)
    .executeTakeFirstOrThrow();
  return { plan: existing, created: false };
}

/** A plan as its owner sees it: another partner's or environment's plan does not exist for them. */
export function findOwnPlan(db: Kysely<DB>, owner: { partnerId: string; environment: string }, id: string) {
  return db
    .selectFrom('recurring_plans')
    .selectAll()
    .where('id', '=', id)
    .where('partner_id', '=', owner.partnerId)
    .where('environment', '=', owner.environment)
    .executeTakeFirst();
}

export function findPlan(db: Kysely<DB>, id: string) {
  return db.selectFrom('recurring_plans').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A plan row-locked until the transaction ends: its schedule and status change one writer at a time. */
export function lockPlan(trx: Kysely<DB>, id: string) {
  return trx.selectFrom('recurring_plans').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Plans row-locked, in the order plansDue gives them (so that two writers of overlapping sets never deadlock). */
export function lockPlans(trx: Kysely<DB>, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('recurring_plans')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy('next_due_date')
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Moves plans' schedules on in one statement: debits scheduled so far, and the next date (null: none left). */
export async function movePlansOn(
  trx: Kysely<DB>,
  plans: { id: string; debitsScheduled: number; nextDueDate: string | null }[],
): Promise<void> {
  if (plans.length === 0) return;
  const rows = sql.join(plans.map((p) => sql`(${p.id}::text, ${p.debitsScheduled}::int, ${p.nextDueDate}::text)`));
  await sql`
    update recurring_plans p
    set debits_scheduled = v.scheduled, next_due_date = v.next_due_date, updated_at = now()
    from (values ${rows}) as v(id, scheduled, next_due_date)
    where p.id = v.id`.execute(trx);
}

export async function updatePlan(
  trx: Kysely<DB>,
  id: string,
  changes: Partial<
    Pick<
      Updateable<RecurringPlansTable>,
      'status' | 'next_due_date' | 'debits_scheduled' | 'failed_in_a_row' | 'canceled_reason' | 'canceled_at'
    >
  >,
): Promise<RecurringPlan> {
  return trx
    .updateTable('recurring_plans')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A page of a partner's plans, optionally of one mandate, in creation order, after the plan numbered `after`. */
export function listOwnPlans(
  db: Kysely<DB>,
  owner: { partnerId: string; environment: string },
  filter: { mandateId?: string; after?: string; limit: number },
) {
  let query = db
    .selectFrom('recurring_plans')
    .selectAll()
    .where('partner_id', '=', owner.partnerId)
    .where('environment', '=', owner.environment);
  if (filter.mandateId) query = query.where('mandate_id', '=', filter.mandateId);
  if (filter.after) query = query.where('seq', '>', filter.after);
  return query.orderBy('seq').limit(filter.limit).execute();
}

/** Plans of these partners (or of every partner but these, with `except`) with a debit due by `today`. */
export function plansDue(
  db: Kysely<DB>,
  today: string,
  partners: { only: string[] } | { except: string[] },
  limit: number,
) {
  let query = db
    .selectFrom('recurring_plans')
    .select('id')
    .where('status', 'in', ['active', 'past_due'])
    .where('next_due_date', '<=', today);
  if ('only' in partners) query = query.where('partner_id', 'in', partners.only.length ? partners.only : ['']);
  else if (partners.except.length > 0) query = query.where('partner_id', 'not in', partners.except);
  // A total order: the scan and the sandbox clock lock a chunk of plans in this order (services/recurring/due-work.ts).
  return query.orderBy('next_due_date').orderBy('id').limit(limit).execute();
}

/** The open plans of a mandate (to cancel them when it ends). */
export function openPlansOfMandate(trx: Kysely<DB>, mandateId: string) {
  return trx
    .selectFrom('recurring_plans')
    .select('id')
    .where('mandate_id', '=', mandateId)
    .where('status', 'in', ['active', 'past_due'])
    .forUpdate()
    .execute();
}

/** The earliest date a plan of the partner has its next debit due after `after` (the sandbox clock walks to it). */
export async function nextPlanDate(db: Kysely<DB>, partnerId: string, after: string): Promise<string | null> {
  const row = await db
    .selectFrom('recurring_plans')
    .select((eb) => eb.fn.min('next_due_date').as('next'))
    .where('partner_id', '=', partnerId)
    .where('status', 'in', ['active', 'past_due'])
    .where('next_due_date', '>', after)
    .executeTakeFirst();
  return row?.next ?? null;
}
