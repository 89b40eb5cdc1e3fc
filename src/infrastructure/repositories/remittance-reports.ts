import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema.js';
import { fundsReceivedAt, type FundsReceivedColumn } from './funds-received-column.js';
import type { RemittanceEntriesTable } from '../db/schema-reconciliation.js';

/** Read side of remittances: the partner's report (GET /remittances/{batchId}) and operators' listings. */

export interface BatchRow {
  id: string;
  partner_id: string;
  partner_name: string;
  environment: string;
  channel: string;
  fundraiser_id: string;
  status: string;
  entry_count: number;
  total_cents: number;
  outcome_counts: Record<string, number>;
  exception_count: number | null;
  attempts: number;
  last_error: string | null;
  last_error_at: Date | null;
  dead_lettered_at: Date | null;
  correlation_id: string;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

/** One stored remittance entry, as the table holds it. */
export type EntryRow = Selectable<RemittanceEntriesTable>;

function batches(db: Kysely<DB>) {
  return db
    .selectFrom('remittance_batches as b')
    .innerJoin('partners as p', 'p.id', 'b.partner_id')
    .select([
      'b.id',
      'b.partner_id',
      'p.name as partner_name',
      'b.environment',
      'b.channel',
      'b.fundraiser_id',
      'b.status',
      'b.entry_count',
      'b.total_cents',
      'b.outcome_counts',
      'b.exception_count',
      'b.attempts',
      'b.last_error',
      'b.last_error_at',
      'b.dead_lettered_at',
      'b.correlation_id',
      'b.created_at',
      'b.started_at',
      'b.completed_at',
    ]);
}

/** A batch by id; with `owner`, only if that partner posted it in that environment (anyone else: not found). */
export async function findBatch(
  db: Kysely<DB>,
  id: string,
  owner?: { partnerId: string; environment: string },
): Promise<BatchRow | undefined> {
  let query = batches(db).where('b.id', '=', id);
  if (owner) query = query.where('b.partner_id', '=', owner.partnerId).where('b.environment', '=', owner.environment);
  return await query.executeTakeFirst();
}

export async function listEntries(
  db: Kysely<DB>,
  batchId: string,
  options: { exceptionsOnly?: boolean } = {},
): Promise<(EntryRow & FundsReceivedColumn)[]> {
  let query = db.selectFrom('remittance_entries').selectAll().select(fundsReceivedAt).where('batch_id', '=', batchId);
  if (options.exceptionsOnly) query = query.where('outcome', 'is not', null).where('outcome', '<>', 'matched');
  return await query.orderBy('position').execute();
}

/** Which of these donation reference ids are donations of the partner in its environment. */
export async function ownDonationReferences(
  db: Kysely<DB>,
  owner: { partnerId: string; environment: string },
  referenceIds: string[],
): Promise<string[]> {
  if (referenceIds.length === 0) return [];
  // One unique-index probe per id, whatever the statistics say (see reconciliation-facts.ts): with `any(ids)`, a
  // partner believed to have a few hundred donations had all its 211,000 read for every page of a report.
  const { rows } = await sql<{ reference_id: string }>`
    select d.reference_id
    from unnest(${referenceIds}::text[]) as k(id)
    cross join lateral (
      select reference_id from donations d
      where d.reference_id = k.id and d.partner_id = ${owner.partnerId}::uuid and d.environment = ${owner.environment}
      limit 1
    ) as d`.execute(db);
  return rows.map((row) => row.reference_id);
}

export interface BatchFilters {
  partnerId?: string;
  status?: string;
  /** created_at >= from, < to. */
  from?: Date;
  to?: Date;
  deadLettered?: boolean;
  limit: number;
}

/** Newest first. */
export async function listBatches(db: Kysely<DB>, filters: BatchFilters): Promise<BatchRow[]> {
  let query = batches(db);
  if (filters.partnerId) query = query.where('b.partner_id', '=', filters.partnerId);
  if (filters.status) query = query.where('b.status', '=', filters.status);
  if (filters.from) query = query.where('b.created_at', '>=', filters.from);
  if (filters.to) query = query.where('b.created_at', '<', filters.to);
  if (filters.deadLettered) query = query.where('b.dead_lettered_at', 'is not', null);
  return await query.orderBy('b.created_at', 'desc').orderBy('b.id').limit(filters.limit).execute();
}

export interface SettlementRow {
  donation_reference_id: string;
  bank_reference_id: string | null;
  batch_id: string | null;
  position: number | null;
  debit_id: string | null;
  amount_cents: number;
  settled_at: Date;
}

/** How a donation was settled, if it was. */
export async function findSettlement(db: Kysely<DB>, donationReferenceId: string): Promise<SettlementRow | undefined> {
  return db
    .selectFrom('donation_settlements')
    .select([
      'donation_reference_id',
      'bank_reference_id',
      'batch_id',
      'position',
      'debit_id',
      'amount_cents',
      'settled_at',
    ])
    .where('donation_reference_id', '=', donationReferenceId)
    .executeTakeFirst();
}
