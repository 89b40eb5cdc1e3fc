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
