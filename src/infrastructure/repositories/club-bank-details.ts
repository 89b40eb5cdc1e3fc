import type { Kysely } from 'kysely';
import type { ClubBankDetails } from '../db/schema-grants.js';
import type { DB } from '../db/schema.js';

export interface NewBankDetails {
  accountId: string;
  bsb: string;
  accountNumber: string;
  accountName: string;
  enteredBy: string;
  enteredAt: Date;
  source: 'cli' | 'console' | 'import';
}

/**
 * Writes a pending version. The partial unique index on pending versions refuses a second one for the same club,
 * whatever runs at once (the caller turns that into a clear refusal).
 */
export function insertPendingDetails(db: Kysely<DB>, details: NewBankDetails): Promise<ClubBankDetails> {
  return db
    .insertInto('club_bank_details')
    .values({
      account_id: details.accountId,
      bsb: details.bsb,
      account_number: details.accountNumber,
      account_name: details.accountName,
      entered_by: details.enteredBy,
      entered_at: details.enteredAt,
      source: details.source,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every version of a club's details, newest first. */
export function bankDetailsHistory(db: Kysely<DB>, accountId: string): Promise<ClubBankDetails[]> {
  return db
    .selectFrom('club_bank_details')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('seq', 'desc')
    .execute();
}

/** The club's pending version, row-locked for the decision on it. */
export function lockPendingDetails(db: Kysely<DB>, accountId: string): Promise<ClubBankDetails | undefined> {
  return db
    .selectFrom('club_bank_details')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('status', '=', 'pending')
    .forUpdate()
    .executeTakeFirst();
}

/** The current and pending versions of the clubs of these member numbers (the accounts import compares against them). */
export function openDetailsByMember(
  db: Kysely<DB>,
  memberNumbers: readonly string[],
): Promise<(ClubBankDetails & { member_number: string })[]> {
  if (memberNumbers.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('club_bank_details as d')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .selectAll('d')
    .select('a.member_number')
    .where('a.member_number', 'in', [...memberNumbers])
    .where('d.status', 'in', ['pending', 'verified'])
    .execute();
}

/** The verified version before `id` becomes verified: superseded first, as one verified version per club is allowed. */
export async function verifyDetails(
  db: Kysely<DB>,
  pending: ClubBankDetails,
  decision: { by: string; at: Date; confirmation: string; holdWaived: boolean },
): Promise<{ verified: ClubBankDetails; superseded: ClubBankDetails | undefined }> {
  const superseded = await db
    .updateTable('club_bank_details')
    .set({ status: 'superseded', superseded_at: decision.at })
    .where('account_id', '=', pending.account_id)
    .where('status', '=', 'verified')
    .returningAll()
    .executeTakeFirst();
  const verified = await db
    .updateTable('club_bank_details')
    .set({
      status: 'verified',
      verified_by: decision.by,
      verified_at: decision.at,
      confirmation: decision.confirmation,
      hold_waived: decision.holdWaived,
    })
    .where('id', '=', pending.id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirstOrThrow();
  return { verified, superseded };
}

export function rejectDetails(
  db: Kysely<DB>,
  pending: ClubBankDetails,
  decision: { by: string; at: Date; reason: string },
): Promise<ClubBankDetails> {
  return db
    .updateTable('club_bank_details')
    .set({ status: 'rejected', rejected_by: decision.by, rejected_at: decision.at, reject_reason: decision.reason })
    .where('id', '=', pending.id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface PendingChangeRow extends ClubBankDetails {
  member_number: string;
  club_name: string;
}

/** Every pending change with its club, oldest first: the queue the verifiers work through. */
export function pendingChanges(db: Kysely<DB>, limit: number): Promise<PendingChangeRow[]> {
  return db
    .selectFrom('club_bank_details as d')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .selectAll('d')
    .select(['a.member_number', 'a.name as club_name'])
    .where('d.status', '=', 'pending')
    .orderBy('d.seq')
    .limit(limit)
    .execute();
}

/** The verified versions of these clubs, by account id (what a pending change replaces). */
export async function verifiedDetailsOf(
  db: Kysely<DB>,
  accountIds: readonly string[],
): Promise<Map<string, ClubBankDetails>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('club_bank_details')
    .selectAll()
    .where('account_id', 'in', [...accountIds])
    .where('status', '=', 'verified')
    .execute();
  return new Map(rows.map((r) => [r.account_id, r]));
}
