import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { fundsReceivedAt, type FundsReceivedColumn } from './funds-received-column.js';
import type { EntryRow } from './remittance-reports.js';

/**
 * Read side of the partner's remittance reports: a batch with its counts, a page of its entries, its batches, and
 * the reversals of the donations it settled.
 */

export interface ReportBatchRow {
  id: string;
  status: string;
  channel: string;
  fundraiser_id: string;
  entry_count: number;
  total_cents: number;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  /** Entries per outcome, and `pending` for those not decided yet. */
  counts: Record<string, number>;
  /** created_at to the microsecond, as text: the list's keyset (a JavaScript Date keeps milliseconds only). */
  created_key: string;
}

/** Which entries: all, one outcome, or every outcome but `matched`. */
export type EntryFilter = { kind: 'all' } | { kind: 'outcomes'; outcomes: string[] } | { kind: 'exceptions' };

export interface Owner {
  partnerId: string;
  environment: string;
}

/*
 * Counts come from the batch's stored counts once it is completed (written by the same transaction as the last
 * outcomes; entries never change afterwards), and are counted from the entries while it is not, so they agree
 * with the entries of the same snapshot even when outcomes are decided a part at a time.
 */
const counts = sql<Record<string, number>>`case when b.status in ('completed', 'completed_with_exceptions')
  then b.outcome_counts
  else coalesce((select jsonb_object_agg(coalesce(x.outcome, 'pending'), x.n)
                 from (select e.outcome, count(*) as n from remittance_entries e where e.batch_id = b.id
                       group by e.outcome) x), '{}'::jsonb)
  end`;

function reportBatches(db: Kysely<DB>, owner?: Owner) {
  let query = db
    .selectFrom('remittance_batches as b')
    .select([
      'b.id',
      'b.status',
      'b.channel',
      'b.fundraiser_id',
      'b.entry_count',
      'b.total_cents',
      'b.created_at',
      'b.started_at',
      'b.completed_at',
      counts.as('counts'),
      sql<string>`to_char(b.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`.as('created_key'),
    ]);
  if (owner) query = query.where('b.partner_id', '=', owner.partnerId).where('b.environment', '=', owner.environment);
  return query;
}

/** A batch with its counts; with `owner`, only if that partner posted it in that environment. */
export async function findReportBatch(
  db: Kysely<DB>,
  batchId: string,
  owner?: Owner,
): Promise<ReportBatchRow | undefined> {
  return reportBatches(db, owner).where('b.id', '=', batchId).executeTakeFirst();
}

/** AUD cents that reversals took back of the donations a batch settled, and of those, what is still owed back. */
export interface BatchReversalTotals {
  reversedCents: number;
  owedBackCents: number;
}

/*
 * From the reversals' side: reversals are few beside settlements, and each is matched to its donation's settlement
 * by primary key. A donation's reversed_cents is the sum of its reversals (src/services/reversals/reverse-donation.ts
 * adds each under the donation's lock), so both totals come from one read.
 */
export async function batchReversalTotals(db: Kysely<DB>, batchId: string): Promise<BatchReversalTotals> {
  const { rows } = await sql<{ reversed: string | number; owed: string | number }>`
    select coalesce(sum(r.amount_cents), 0) as reversed,
      coalesce(sum(r.amount_cents) filter (where r.owed_back and r.repaid_at is null), 0) as owed
    from donation_reversals r
    join donation_settlements s on s.donation_id = r.donation_id
    where s.batch_id = ${batchId}::uuid`.execute(db);
  return { reversedCents: Number(rows[0]?.reversed ?? 0), owedBackCents: Number(rows[0]?.owed ?? 0) };
}

export interface Page {
  filter: EntryFilter;
  /** -1: from the start. */
  afterIndex: number;
  limit: number;
}

/*
 * A batch's positions run from 0 to entry_count - 1 without gaps, so an unfiltered page is exactly the positions
 * (afterIndex, afterIndex + limit], and saying so keeps the plan from depending on statistics: a 100,000-entry batch
 * just reconciled, not analysed yet, was believed to have a few hundred entries, and every page read all the rest
 * of the batch and sorted it (22-33 ms a page, then for each of the hundred pages of its CSV export).
 */
function pageOf(db: Kysely<DB>, batchId: string, { filter, afterIndex, limit }: Page) {
  let query = db
    .selectFrom('remittance_entries')
    .where('batch_id', '=', batchId)
    .where('position', '>', afterIndex)
    .orderBy('position')
    .limit(limit);
  if (filter.kind === 'all') query = query.where('position', '<=', afterIndex + limit);
  if (filter.kind === 'outcomes')
    query =
      filter.outcomes.length === 0 ? query.where(sql<boolean>`false`) : query.where('outcome', 'in', filter.outcomes);
  if (filter.kind === 'exceptions') query = query.where('outcome', 'is not', null).where('outcome', '<>', 'matched');
  return query;
}

/** Entries after `afterIndex` that pass `filter`, in index order. */
export async function entryPage(
  db: Kysely<DB>,
  batchId: string,
  page: Page,
): Promise<(EntryRow & FundsReceivedColumn)[]> {
  return pageOf(db, batchId, page).selectAll().select(fundsReceivedAt).execute();
}

/** An entry as the CSV export reads it: donation ids already joined by `;` (no array to parse per row). */
export interface ExportEntryRow {
  position: number;
  bank_reference_id: string;
  amount_cents: number;
  donation_ids: string;
  outcome: string | null;
  outcome_detail: string | null;
  funds_received_at: Date | string | null;
}

export async function exportEntryPage(db: Kysely<DB>, batchId: string, page: Page): Promise<ExportEntryRow[]> {
  return pageOf(db, batchId, page)
    .select([
      'position',
      'bank_reference_id',
      'amount_cents',
      sql<string>`array_to_string(donation_ids, ';')`.as('donation_ids'),
      'outcome',
      'outcome_detail',
      fundsReceivedAt,
    ])
    .execute();
}

export interface PartnerBatchQuery {
  owner: Owner;
  status?: string;
  /** created_at >= from, < to. */
  from?: Date;
  to?: Date;
  /** The last batch of the previous page. */
  after?: { createdKey: string; id: string };
  limit: number;
}

/** A partner's batches in one environment, newest first (ties by id, descending). */
export async function listPartnerBatches(db: Kysely<DB>, q: PartnerBatchQuery): Promise<ReportBatchRow[]> {
  let query = reportBatches(db, q.owner);
  if (q.status) query = query.where('b.status', '=', q.status);
  if (q.from) query = query.where('b.created_at', '>=', q.from);
  if (q.to) query = query.where('b.created_at', '<', q.to);
  if (q.after) {
    const { createdKey, id } = q.after;
    query = query.where(
      sql<boolean>`(b.created_at, b.id) < (${createdKey}::timestamp at time zone 'UTC', ${id}::uuid)`,
    );
  }
  return query.orderBy('b.created_at', 'desc').orderBy('b.id', 'desc').limit(q.limit).execute();
}
