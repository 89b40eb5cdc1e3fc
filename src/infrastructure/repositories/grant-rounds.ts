import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { GrantBasis, GrantRound, GrantRoundsTable } from '../db/schema-grants.js';
import type { Updateable } from 'kysely';

/** Grant rounds (docs/grants.md): drafted, reviewed, approved, paid or cancelled. */

export interface NewRound {
  scheduledOn: string | null;
  cutoffAt: Date;
  basis: GrantBasis;
  feeBasisPoints: number;
  minimumCents: bigint;
  draftedBy: string;
  at: Date;
}

/**
 * The next round, numbered after every round before it (cancelled ones too: a number is never reused). The partial
 * unique index of open drafts and the unique scheduled day refuse a second one (SQLSTATE 23505), waiting first for
 * a drafting transaction still open, so two drafters never both proceed.
 */
export async function insertRound(trx: Kysely<DB>, round: NewRound): Promise<GrantRound> {
  const { rows } = await sql<GrantRound>`
    insert into grant_rounds (number, scheduled_on, cutoff_at, basis, fee_basis_points, minimum_cents, drafted_by,
                              drafted_at)
    select coalesce(max(number), 0) + 1, ${round.scheduledOn}, ${round.cutoffAt}, ${round.basis},
           ${round.feeBasisPoints}, ${String(round.minimumCents)}, ${round.draftedBy}, ${round.at}
    from grant_rounds
    returning *`.execute(trx);
  return rows[0]!;
}

const columns = [
  'id',
  'number',
  'scheduled_on',
  'cutoff_at',
  'basis',
  'fee_basis_points',
  'minimum_cents',
  'status',
  'drafted_by',
  'drafted_at',
  'reviewed_by',
  'reviewed_at',
  'approved_by',
  'approved_at',
  'cancelled_by',
  'cancelled_at',
  'cancel_reason',
  'total_cents',
  'grant_count',
  'held_count',
  'aba_sha256',
  'paid_by',
  'paid_at',
  'bank_line_id',
  'bank_confirmed_at',
] as const;

/** A round without its file's bytes (they are read only to download it). */
export type RoundRow = Omit<GrantRound, 'aba_file'>;

export function findRoundByNumber(db: Kysely<DB>, number: number): Promise<RoundRow | undefined> {
  return db.selectFrom('grant_rounds').select(columns).where('number', '=', number).executeTakeFirst();
}

export function findRoundByScheduledDay(db: Kysely<DB>, day: string): Promise<RoundRow | undefined> {
  return db.selectFrom('grant_rounds').select(columns).where('scheduled_on', '=', day).executeTakeFirst();
}

/** The round, locked for the rest of the transaction: its status is checked and changed under this lock. */
export function lockRound(trx: Kysely<DB>, number: number): Promise<RoundRow | undefined> {
  return trx.selectFrom('grant_rounds').select(columns).where('number', '=', number).forUpdate().executeTakeFirst();
}

export function openDraft(db: Kysely<DB>): Promise<RoundRow | undefined> {
  return db.selectFrom('grant_rounds').select(columns).where('status', '=', 'draft').executeTakeFirst();
}

/** The round before this one that was approved (the one a review compares with). */
export function previousApprovedRound(db: Kysely<DB>, number: number): Promise<RoundRow | undefined> {
  return db
    .selectFrom('grant_rounds')
    .select(columns)
    .where('number', '<', number)
    .where('status', 'in', ['approved', 'paid'])
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function listRounds(db: Kysely<DB>, limit: number): Promise<RoundRow[]> {
  return db.selectFrom('grant_rounds').select(columns).orderBy('number', 'desc').limit(limit).execute();
}

/**
 * Changes a round only while it has the status given: an approved round never changes but for its payment's
 * progress, so every write names the status it expects and 0 rows means it moved on.
 */
export async function updateRoundIf(
  trx: Kysely<DB>,
  id: string,
  expected: GrantRound['status'],
  change: Updateable<GrantRoundsTable>,
): Promise<boolean> {
  const result = await trx
    .updateTable('grant_rounds')
    .set(change)
    .where('id', '=', id)
    .where('status', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The confirmation of the file's total by a bank line: once. */
export async function confirmRound(trx: Kysely<DB>, id: string, lineId: string, at: Date): Promise<boolean> {
  const result = await trx
    .updateTable('grant_rounds')
    .set({ bank_line_id: lineId, bank_confirmed_at: at })
    .where('id', '=', id)
    .where('bank_line_id', 'is', null)
    .where('status', 'in', ['approved', 'paid'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The payment file as stored at approval. */
export async function abaFileOf(db: Kysely<DB>, id: string): Promise<{ bytes: Buffer; sha256: string } | undefined> {
  const row = await db
    .selectFrom('grant_rounds')
    .select(['aba_file', 'aba_sha256'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row?.aba_file || !row.aba_sha256) return undefined;
  return { bytes: Buffer.from(row.aba_file), sha256: row.aba_sha256 };
}
