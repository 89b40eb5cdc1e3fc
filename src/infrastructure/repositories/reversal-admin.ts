import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Operators' and finance's reads of reversals (docs/reversals.md): a donation's reversals, the money owed back (made
 * after settlement, not yet repaid) with its totals, the dashboard's figures; and the repaid mark.
 */

/** A reversal as operators see it, with its partner and the donation's fundraiser named. */
export interface ReversalRow {
  reversalId: string;
  donationReferenceId: string;
  partnerId: string;
  partnerName: string;
  environment: string;
  fundraiserId: string;
  accountName: string;
  amountCents: number;
  reason: string;
  /** `partner`, `provider` (a disputed debit), or the operator who asked. */
  requestedBy: string;
  note: string | null;
  owedBack: boolean;
  repaidAt: Date | null;
  repaidBy: string | null;
  createdAt: Date;
}

export interface ReversalFilter {
  donationReferenceId?: string;
  reversalId?: string;
  /** Only reversals owed back and not yet repaid. */
  owed?: boolean;
  partnerId?: string;
  /** Every one when absent (a donation's). */
  limit?: number;
}

/** Reversals matching every given criterion, oldest first (creation order). */
export async function listReversalRows(db: Kysely<DB>, filter: ReversalFilter): Promise<ReversalRow[]> {
  let query = db
    .selectFrom('donation_reversals as r')
    .innerJoin('partners as p', 'p.id', 'r.partner_id')
    .innerJoin('donations as d', 'd.id', 'r.donation_id')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select([
      'r.id as reversalId',
      'r.donation_reference_id as donationReferenceId',
      'r.partner_id as partnerId',
      'p.name as partnerName',
      'r.environment',
      'd.fundraiser_id as fundraiserId',
      'a.name as accountName',
      'r.amount_cents as amountCents',
      'r.reason',
      'r.requested_by as requestedBy',
      'r.note',
      'r.owed_back as owedBack',
      'r.repaid_at as repaidAt',
      'r.repaid_by as repaidBy',
      'r.created_at as createdAt',
    ]);
  // By the donation's reference (unique), so the reversals' index on donation_id serves the join.
  if (filter.donationReferenceId !== undefined) query = query.where('d.reference_id', '=', filter.donationReferenceId);
  if (filter.reversalId !== undefined) query = query.where('r.id', '=', filter.reversalId);
  if (filter.owed) query = query.where('r.owed_back', '=', true).where('r.repaid_at', 'is', null);
  if (filter.partnerId !== undefined) query = query.where('r.partner_id', '=', filter.partnerId);
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  const rows = await query.orderBy('r.seq').execute();
  return rows.map((row) => ({
    ...row,
    amountCents: Number(row.amountCents),
    repaidAt: row.repaidAt === null ? null : new Date(row.repaidAt),
    createdAt: new Date(row.createdAt),
  }));
}

/** Money owed back to one partner in one environment. */
export interface OwedTotal {
  partnerName: string;
  environment: string;
  count: number;
  totalCents: number;
}

/** What is owed back (not yet repaid) per partner and environment, whatever a listing's limit. */
export async function owedTotals(db: Kysely<DB>, filter: { partnerId?: string }): Promise<OwedTotal[]> {
  let query = db
    .selectFrom('donation_reversals as r')
    .innerJoin('partners as p', 'p.id', 'r.partner_id')
    .select([
      'p.name as partnerName',
      'r.environment',
      sql<string>`count(*)`.as('count'),
      sql<string>`coalesce(sum(r.amount_cents), 0)`.as('totalCents'),
    ])
    .where('r.owed_back', '=', true)
    .where('r.repaid_at', 'is', null);
  if (filter.partnerId !== undefined) query = query.where('r.partner_id', '=', filter.partnerId);
  const rows = await query.groupBy(['p.name', 'r.environment']).orderBy('p.name').orderBy('r.environment').execute();
  return rows.map((row) => ({ ...row, count: Number(row.count), totalCents: Number(row.totalCents) }));
}

/** A reversal row-locked until the transaction ends: two finance clerks marking it repaid are decided in turn. */
export async function lockReversal(trx: Kysely<DB>, reversalId: string) {
  return trx
    .selectFrom('donation_reversals')
    .select(['id', 'donation_reference_id', 'partner_id', 'amount_cents', 'owed_back', 'repaid_at', 'repaid_by'])
    .where('id', '=', reversalId)
    .forUpdate()
    .executeTakeFirst();
}

export async function markReversalRepaid(trx: Kysely<DB>, reversalId: string, at: Date, by: string): Promise<void> {
  await trx
    .updateTable('donation_reversals')
    .set({ repaid_at: at, repaid_by: by })
    .where('id', '=', reversalId)
    .execute();
}

/** The dashboard's figures: reversals made since a time, and everything owed back now. */
export interface ReversalFigures {
  count: number;
  totalCents: number;
  owedCount: number;
  owedCents: number;
}

export async function reversalFigures(db: Kysely<DB>, since: Date): Promise<ReversalFigures> {
  // The days' reversals from their daily rollup (migration 047, `since` is the start of a UTC day); the money owed
  // back through the partial index of unrepaid reversals: neither reads the reversals of past seasons.
  const { rows } = await sql<Record<keyof ReversalFigures, string | number>>`
    select d.count as "count", d.total_cents as "totalCents", o.count as "owedCount", o.total_cents as "owedCents"
    from (select coalesce(sum(count), 0) as count, coalesce(sum(total_cents), 0) as total_cents
          from daily_reversals where day >= ${since.toISOString().slice(0, 10)}::date) d,
         (select count(*) as count, coalesce(sum(amount_cents), 0) as total_cents
          from donation_reversals where owed_back and repaid_at is null) o`.execute(db);
  const row = rows[0]!;
  return {
    count: Number(row.count),
    totalCents: Number(row.totalCents),
    owedCount: Number(row.owedCount),
    owedCents: Number(row.owedCents),
  };
}
