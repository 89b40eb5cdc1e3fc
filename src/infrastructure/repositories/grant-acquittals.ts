import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** An open acquittal to remind, with what the reminder says and where it goes. */
export interface AcquittalToRemind {
  grant_id: string;
  due_on: string;
  lodgement_reference: string;
  amount_cents: string;
  club_name: string;
  emails: string[];
}

/**
 * The open acquittals not reminded yet that fall due on or before `through` and whose club has a finance contact,
 * row-locked until commit (skipping those another run holds): each is reminded once.
 */
export async function lockAcquittalsToRemind(trx: Kysely<DB>, through: string): Promise<AcquittalToRemind[]> {
  const { rows } = await sql<AcquittalToRemind>`
    select q.grant_id, q.due_on, g.lodgement_reference, g.amount_cents, a.name as club_name,
      array(select c.email from club_contacts c where c.account_id = q.account_id and c.role = 'finance'
            order by c.created_at, c.id) as emails
    from grant_acquittals q
    join grants g on g.id = q.grant_id
    join accounts a on a.id = q.account_id
    where q.recorded_at is null and q.reminded_at is null and q.due_on <= ${through}
      and exists (select 1 from club_contacts c where c.account_id = q.account_id and c.role = 'finance')
    order by q.due_on, q.grant_id
    for update of q skip locked`.execute(trx);
  return rows;
}

export async function markReminded(trx: Kysely<DB>, grantIds: readonly string[], at: Date): Promise<void> {
  if (grantIds.length === 0) return;
  await trx
    .updateTable('grant_acquittals')
    .set({ reminded_at: at })
    .where('grant_id', '=', sql<string>`any(${[...grantIds]}::uuid[])`)
    .execute();
}

/** An acquittal as operators list it. */
export interface AcquittalListing {
  grant_id: string;
  lodgement_reference: string | null;
  amount_cents: string;
  club_name: string;
  member_number: string;
  due_on: string;
  reminded_at: Date | null;
  declared_by: string | null;
  declared_on: string | null;
  amount_spent_cents: string | null;
  purpose: string | null;
  recorded_by: string | null;
  recorded_at: Date | null;
}

/** Acquittals, soonest due first: open ones (all, or only those overdue on `today`), or every one of a club. */
export function listAcquittals(
  db: Kysely<DB>,
  filter: { open?: boolean; overdueOn?: string; accountId?: string; limit: number },
): Promise<AcquittalListing[]> {
  let query = db
    .selectFrom('grant_acquittals as q')
    .innerJoin('grants as g', 'g.id', 'q.grant_id')
    .innerJoin('accounts as a', 'a.id', 'q.account_id')
    .select([
      'q.grant_id',
      'g.lodgement_reference',
      'g.amount_cents',
      'a.name as club_name',
      'a.member_number',
      'q.due_on',
      'q.reminded_at',
      'q.declared_by',
      'q.declared_on',
      'q.amount_spent_cents',
      'q.purpose',
      'q.recorded_by',
      'q.recorded_at',
    ]);
  if (filter.open || filter.overdueOn) query = query.where('q.recorded_at', 'is', null);
  if (filter.overdueOn) query = query.where('q.due_on', '<', filter.overdueOn);
  if (filter.accountId) query = query.where('q.account_id', '=', filter.accountId);
  return query.orderBy('q.due_on').orderBy('g.lodgement_reference').limit(filter.limit).execute();
}

/** A grant's acquittal, row-locked, by the grant's lodgement reference. */
export function lockAcquittalOf(trx: Kysely<DB>, lodgementReference: string) {
  return trx
    .selectFrom('grant_acquittals as q')
    .innerJoin('grants as g', 'g.id', 'q.grant_id')
    .innerJoin('grant_rounds as r', 'r.id', 'g.round_id')
    .select(['q.grant_id', 'q.due_on', 'q.recorded_at', 'q.recorded_by', 'g.amount_cents', 'r.paid_at'])
    .where('g.lodgement_reference', '=', lodgementReference)
    .forUpdate('q')
    .executeTakeFirst();
}

export async function recordDeclaration(
  trx: Kysely<DB>,
  grantId: string,
  declaration: { declaredBy: string; declaredOn: string; spentCents: number; purpose: string; by: string; at: Date },
): Promise<void> {
  await trx
    .updateTable('grant_acquittals')
    .set({
      declared_by: declaration.declaredBy,
      declared_on: declaration.declaredOn,
      amount_spent_cents: declaration.spentCents,
      purpose: declaration.purpose,
      recorded_by: declaration.by,
      recorded_at: declaration.at,
    })
    .where('grant_id', '=', grantId)
    .where('recorded_at', 'is', null)
    .execute();
}
