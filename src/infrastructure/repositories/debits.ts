import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Debit, DebitsTable } from '../db/schema-recurring.js';

/** Inserts plans' debits in one statement; the ids of those inserted (a (plan, date) that exists already is not). */
export async function insertPlanDebitsOnce(trx: Kysely<DB>, debits: Insertable<DebitsTable>[]): Promise<string[]> {
  if (debits.length === 0) return [];
  const inserted = await trx
    .insertInto('debits')
    .values(debits)
    .onConflict((oc) => oc.columns(['plan_id', 'due_date']).where('plan_id', 'is not', null).doNothing())
    .returning('id')
    .execute();
  return inserted.map((row) => row.id);
}

/**
 * Inserts a one-off debit unless the partner's transaction id already names one (its natural key); returns the
 * stored debit and whether this call created it.
 */
export async function insertOneOffDebitOnce(
  db: Kysely<DB>,
  debit: Insertable<DebitsTable>,
): Promise<{ debit: Debit; created: boolean }> {
  const inserted = await db
    .insertInto('debits')
    .values(debit)
    .onConflict((oc) =>
      oc.columns(['partner_id', 'environment', 'transaction_id']).where('transaction_id', 'is not', null).doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { debit: inserted, created: true };
  const existing = await db
    .selectFrom('debits')
    .selectAll()
    .where('partner_id', '=', debit.partner_id)
    .where('environment', '=', debit.environment)
    .where('transaction_id', '=', debit.transaction_id ?? null)
    .executeTakeFirstOrThrow();
  return { debit: existing, created: false };
}

export function findDebit(db: Kysely<DB>, id: string) {
  return db.selectFrom('debits').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A debit as its owner sees it: another partner's or environment's debit does not exist for them. */
export function findOwnDebit(db: Kysely<DB>, owner: { partnerId: string; environment: string }, id: string) {
  return db
    .selectFrom('debits')
    .selectAll()
    .where('id', '=', id)
    .where('partner_id', '=', owner.partnerId)
    .where('environment', '=', owner.environment)
    .executeTakeFirst();
}

/** A debit row-locked until the transaction ends: its outcome is applied one event at a time. */
export function lockDebit(trx: Kysely<DB>, id: string) {
  return trx.selectFrom('debits').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function updateDebit(trx: Kysely<DB>, id: string, changes: Updateable<DebitsTable>): Promise<Debit> {
  return trx
    .updateTable('debits')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Records the submission of try `attempt` unless someone else already recorded it (the same try reaches the same
 * payment at the provider, so either record is the truth); true when this call did.
 */
export async function markSubmitted(
  trx: Kysely<DB>,
  id: string,
  submission: { attempt: number; paymentId: string; at: Date },
): Promise<boolean> {
  const result = await trx
    .updateTable('debits')
    .set({
      status: 'processing',
      attempts: submission.attempt,
      provider_payment_id: submission.paymentId,
      next_attempt_on: null,
      submitted_at: submission.at,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('attempts', '=', submission.attempt - 1)
    .where('status', 'in', ['scheduled', 'failed'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A debit as shown to partners and operators: with the reference of the donation it became, once collected. */
export type ShownDebit = Debit & { donation_reference_id: string | null };

function shownDebits(db: Kysely<DB>) {
  return db
    .selectFrom('debits as d')
    .leftJoin('donations as don', 'don.id', 'd.donation_id')
    .selectAll('d')
    .select('don.reference_id as donation_reference_id');
}

/** The debits of several plans, in date order (one statement for a page of plans). */
export function debitsOfPlans(db: Kysely<DB>, planIds: string[]): Promise<ShownDebit[]> {
  if (planIds.length === 0) return Promise.resolve([]);
  return shownDebits(db).where('d.plan_id', 'in', planIds).orderBy('d.plan_id').orderBy('d.due_date').execute();
}

/** One debit as shown, by id. */
export function findShownDebit(db: Kysely<DB>, id: string): Promise<ShownDebit | undefined> {
  return shownDebits(db).where('d.id', '=', id).executeTakeFirst();
}

/**
 * Debits of these partners (or of every partner but these, with `except`) due for a try by `today` whose try has
 * no collection job yet (`queued`: false), or every one due (`queued`: true, the sandbox clock's walk).
 */
export function debitsDue(
  db: Kysely<DB>,
  today: string,
  partners: { only: string[] } | { except: string[] },
  options: { limit: number; unqueuedOnly: boolean },
) {
  let query = db
    .selectFrom('debits')
    .select(['id', 'attempts'])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'scheduled'), eb('due_date', '<=', today)]),
        eb.and([eb('status', '=', 'failed'), eb('next_attempt_on', '<=', today)]),
      ]),
    );
  if (options.unqueuedOnly) query = query.where('queued_attempt', '<=', sql<number>`attempts`);
  if ('only' in partners) query = query.where('partner_id', 'in', partners.only.length ? partners.only : ['']);
  else if (partners.except.length > 0) query = query.where('partner_id', 'not in', partners.except);
  return query.orderBy('due_date').limit(options.limit).execute();
}

/** Records that the collection job of try `attempt` was enqueued (in the transaction that enqueued it). */
export async function markQueued(trx: Kysely<DB>, id: string, attempt: number): Promise<void> {
  await trx.updateTable('debits').set({ queued_attempt: attempt }).where('id', '=', id).execute();
}

/** The earliest date a debit of the partner is due for a try after `after` (the sandbox clock walks to it). */
export async function nextDebitDate(db: Kysely<DB>, partnerId: string, after: string): Promise<string | null> {
  const row = await db
    .selectFrom('debits')
    .select((eb) => eb.fn.min(eb.fn.coalesce('next_attempt_on', 'due_date')).as('next'))
    .where('partner_id', '=', partnerId)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'scheduled'), eb('due_date', '>', after)]),
        eb.and([eb('status', '=', 'failed'), eb('next_attempt_on', '>', after)]),
      ]),
    )
    .executeTakeFirst();
  return row?.next ?? null;
}

/** The debits of a plan not yet submitted, or waiting for another try (to close when the plan is canceled). */
export function openDebitsOfPlan(trx: Kysely<DB>, planId: string) {
  return trx
    .selectFrom('debits')
    .selectAll()
    .where('plan_id', '=', planId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'scheduled'),
        eb.and([eb('status', '=', 'failed'), eb('next_attempt_on', 'is not', null)]),
      ]),
    )
    .forUpdate()
    .execute();
}

/** Whether a plan still has a debit not settled: scheduled, with the bank, or failed with a try to come. */
export async function hasOpenDebits(trx: Kysely<DB>, planId: string): Promise<boolean> {
  const open = await trx
    .selectFrom('debits')
    .select('id')
    .where('plan_id', '=', planId)
    .where((eb) =>
      eb.or([
        eb('status', 'in', ['scheduled', 'processing']),
        eb.and([eb('status', '=', 'failed'), eb('next_attempt_on', 'is not', null)]),
      ]),
    )
    .executeTakeFirst();
  return open !== undefined;
}

/** The debit whose latest try is this provider payment (a dispute names the payment, not our debit). */
export function findDebitByPayment(db: Kysely<DB>, paymentId: string): Promise<Debit | undefined> {
  return db.selectFrom('debits').selectAll().where('provider_payment_id', '=', paymentId).executeTakeFirst();
}
