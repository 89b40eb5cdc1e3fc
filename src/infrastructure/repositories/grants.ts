import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Grant, GrantStatus } from '../db/schema-grants.js';

/** Grants: each club's line of a round (docs/grants.md). */

export interface LineView {
  id: string;
  account_id: string;
  member_number: string;
  club_name: string;
  status: GrantStatus;
  hold_reason: string | null;
  donations_cents: string;
  recovered_cents: string;
  reissued_cents: string;
  fee_cents: string;
  amount_cents: string;
  donation_count: number;
  bsb: string | null;
  account_number: string | null;
  account_name: string | null;
  lodgement_reference: string | null;
}

/** A round's lines with their clubs, in member-number order (bigints as text on either database). */
export async function linesOfRound(db: Kysely<DB>, roundId: string): Promise<LineView[]> {
  const { rows } = await sql<LineView>`
    select g.id, g.account_id, a.member_number, a.name as club_name, g.status, g.hold_reason,
      g.donations_cents::text as donations_cents, g.recovered_cents::text as recovered_cents,
      g.reissued_cents::text as reissued_cents, g.fee_cents::text as fee_cents, g.amount_cents::text as amount_cents,
      g.donation_count, g.bsb, g.account_number, g.account_name, g.lodgement_reference
    from grants g join accounts a on a.id = g.account_id
    where g.round_id = ${roundId}
    order by a.member_number`.execute(db);
  return rows;
}

/** The lines to pay, in lodgement order: what the bank's file lists. */
export async function payableLines(db: Kysely<DB>, roundId: string): Promise<LineView[]> {
  const lines = await linesOfRound(db, roundId);
  return lines.filter((l) => l.status === 'payable' || l.status === 'paid');
}

/** The round's payable lines marked paid; how many. */
export async function markLinesPaid(trx: Kysely<DB>, roundId: string): Promise<number> {
  const result = await trx
    .updateTable('grants')
    .set({ status: 'paid' })
    .where('round_id', '=', roundId)
    .where('status', '=', 'payable')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A grant by its lodgement reference, locked: a return or a confirmation changes it under this lock. */
export function lockGrantByReference(trx: Kysely<DB>, reference: string): Promise<Grant | undefined> {
  return trx
    .selectFrom('grants')
    .selectAll()
    .where('lodgement_reference', '=', reference.toUpperCase())
    .forUpdate()
    .executeTakeFirst();
}

/** A paid grant returned by the bank; false when it was not paid (or already returned). */
export async function markReturned(
  trx: Kysely<DB>,
  id: string,
  change: { at: Date; by: string; reason: string },
): Promise<boolean> {
  const result = await trx
    .updateTable('grants')
    .set({ status: 'returned', returned_at: change.at, returned_by: change.by, return_reason: change.reason })
    .where('id', '=', id)
    .where('status', '=', 'paid')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A grant's own statement line, once. */
export async function confirmGrant(trx: Kysely<DB>, id: string, lineId: string): Promise<boolean> {
  const result = await trx
    .updateTable('grants')
    .set({ bank_line_id: lineId })
    .where('id', '=', id)
    .where('bank_line_id', 'is', null)
    .where('status', 'in', ['payable', 'paid'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The acquittal each paid grant of the round asks for, due on `dueOn`; once per grant. */
export async function insertAcquittals(trx: Kysely<DB>, roundId: string, dueOn: string): Promise<void> {
  await sql`
    insert into grant_acquittals (grant_id, account_id, due_on)
    select id, account_id, ${dueOn} from grants where round_id = ${roundId} and status = 'paid'
    on conflict (grant_id) do nothing`.execute(trx);
}

/** Where a club's contacts are told of its grants (every contact on file, each address once). */
export async function clubContactEmails(db: Kysely<DB>, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('club_contacts')
    .select('email')
    .where('account_id', '=', accountId)
    .orderBy('email')
    .execute();
  return [...new Set(rows.map((r) => r.email.toLowerCase()))];
}

export interface StatementLine {
  id: string;
  credit: boolean;
  amount_cents: string;
  booked_on: string;
  text: string;
}

/**
 * A statement's debit lines paying exactly an approved or paid round's total, booked on or after the day it was
 * approved (in `timeZone`), with the round: what the bank's debit of a whole file looks like.
 */
export async function linesPayingRounds(trx: Kysely<DB>, statementId: string, timeZone: string) {
  const { rows } = await sql<{ line_id: string; round_id: string; round_number: number }>`
    select l.id::text as line_id, r.id as round_id, r.number as round_number
    from bank_lines l
    join grant_rounds r on r.total_cents = l.amount_cents and r.status in ('approved', 'paid')
      and r.bank_line_id is null and l.booked_on >= to_char(r.approved_at at time zone ${timeZone}, 'YYYY-MM-DD')
    where l.statement_id = ${statementId} and not l.credit
    order by l.id, r.number`.execute(trx);
  return rows;
}

/** A statement's lines whose reference or description carries something like a lodgement reference. */
export async function linesWithLodgementReferences(trx: Kysely<DB>, statementId: string): Promise<StatementLine[]> {
  const { rows } = await sql<StatementLine>`
    select l.id::text as id, l.credit, l.amount_cents::text as amount_cents, l.booked_on,
           coalesce(l.reference, '') || ' ' || l.description as text
    from bank_lines l
    where l.statement_id = ${statementId}
      and upper(coalesce(l.reference, '') || ' ' || l.description) ~ 'FG[0-9]+-[0-9]+'
      and not exists (select 1 from grant_rounds r where r.bank_line_id = l.id)
    order by l.id`.execute(trx);
  return rows;
}

export interface RegisterRow {
  round_number: number;
  round_status: string;
  scheduled_on: string | null;
  cutoff_at: Date | string;
  approved_at: Date | string | null;
  paid_at: Date | string | null;
  member_number: string;
  club_name: string;
  status: string;
  hold_reason: string | null;
  donation_count: number;
  donations_cents: string;
  recovered_cents: string;
  reissued_cents: string;
  fee_cents: string;
  amount_cents: string;
  lodgement_reference: string | null;
  bsb: string | null;
  account_number: string | null;
  returned_at: Date | string | null;
  return_reason: string | null;
  rcti_number: string | null;
}

/**
 * A page of the grants register: every line of rounds not cancelled whose cut-off is in [from, to), in round then
 * member-number order, after the (round, member number) given.
 */
export async function registerPage(
  db: Kysely<DB>,
  range: { from: Date; to: Date; after: [number, string]; limit: number },
): Promise<RegisterRow[]> {
  const { rows } = await sql<RegisterRow>`
    select r.number as round_number, r.status as round_status, r.scheduled_on, r.cutoff_at, r.approved_at, r.paid_at,
      a.member_number, a.name as club_name, g.status, g.hold_reason, g.donation_count,
      g.donations_cents::text as donations_cents, g.recovered_cents::text as recovered_cents,
      g.reissued_cents::text as reissued_cents, g.fee_cents::text as fee_cents, g.amount_cents::text as amount_cents,
      g.lodgement_reference, g.bsb, g.account_number, g.returned_at, g.return_reason, g.rcti_number
    from grants g
    join grant_rounds r on r.id = g.round_id
    join accounts a on a.id = g.account_id
    where r.status <> 'cancelled' and r.cutoff_at >= ${range.from} and r.cutoff_at < ${range.to}
      and (r.number, a.member_number) > (${range.after[0]}, ${range.after[1]})
    order by r.number, a.member_number
    limit ${range.limit}`.execute(db);
  return rows;
}
