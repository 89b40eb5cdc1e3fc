import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema.js';
import type { RemittanceEntriesTable } from '../db/schema-reconciliation.js';

/** Operators' listings of remittance entries across batches (the CLI, the console's dashboard, notices, exports). */

/** An entry with the batch it belongs to, for listings across batches and exports. */
export interface BatchEntryRow extends Selectable<RemittanceEntriesTable> {
  partner_name: string;
  environment: string;
  fundraiser_id: string;
  batch_status: string;
  batch_created_at: Date;
  /** What reversals took back of the entry's donations (docs/reversals.md). */
  reversed_cents: number | string;
}

export interface EntryFilters {
  batchId?: string;
  partnerId?: string;
  /** Only this outcome. */
  outcome?: string;
  /** Only outcomes other than `matched` (served by a partial index). */
  exceptionsOnly?: boolean;
  from?: Date;
  to?: Date;
  limit: number;
}

/*
 * Each donation the entry names once (an id listed twice counts once, as in reconciliation), found by its unique
 * reference: a probe per id, whatever the statistics of the partner's donations say (see ownDonationReferences).
 */
const entryReversedCents = sql<string>`(select coalesce(sum(d.reversed_cents), 0)
  from (select distinct unnest(e.donation_ids) as id) k
  join donations d on d.reference_id = k.id
  where d.partner_id = b.partner_id and d.environment = b.environment)`;

/** What a listed entry shows: the entry, its partner's name, its batch's state and what reversals took back. */
const ENTRY_COLUMNS = [
  'e.batch_id',
  'e.position',
  'e.bank_reference_id',
  'e.amount_cents',
  'e.donation_ids',
  'e.outcome',
  'e.outcome_detail',
  'p.name as partner_name',
  'b.environment',
  'b.fundraiser_id',
  'b.status as batch_status',
  'b.created_at as batch_created_at',
  entryReversedCents.as('reversed_cents'),
] as const;

/** Entries across batches, newest batch first, in entry order within a batch. */
export async function listBatchEntries(db: Kysely<DB>, filters: EntryFilters): Promise<BatchEntryRow[]> {
  if (filters.exceptionsOnly && !filters.batchId) return latestExceptions(db, filters);
  let query = db
    .selectFrom('remittance_entries as e')
    .innerJoin('remittance_batches as b', 'b.id', 'e.batch_id')
    .innerJoin('partners as p', 'p.id', 'b.partner_id')
    .select(ENTRY_COLUMNS);
  if (filters.exceptionsOnly) query = query.where('e.outcome', 'is not', null).where('e.outcome', '<>', 'matched');
  if (filters.batchId) query = query.where('e.batch_id', '=', filters.batchId);
  if (filters.partnerId) query = query.where('b.partner_id', '=', filters.partnerId);
  if (filters.outcome) query = query.where('e.outcome', '=', filters.outcome);
  if (filters.from) query = query.where('b.created_at', '>=', filters.from);
  if (filters.to) query = query.where('b.created_at', '<', filters.to);
  return await query
    .orderBy('b.created_at', 'desc')
    .orderBy('e.batch_id')
    .orderBy('e.position')
    .limit(filters.limit)
    .execute();
}

/**
 * The latest exceptions across batches (the console's dashboard, `remittances entries --exceptions`): the newest
 * batches that have one, no more of them than entries asked for (each gives at least one), then at most that many
 * exceptions of each in entry order, through the index of a batch's exceptions (migration 057). Joining every
 * exception of the range to its batch and sorting them all to show ten grew with one bad month's exceptions, and with
 * statistics not yet updated after it the planner read each of them (docs/performance/history.md).
 */
async function latestExceptions(db: Kysely<DB>, filters: EntryFilters): Promise<BatchEntryRow[]> {
  const isException = (outcome: 'x.outcome' | 'e.outcome') =>
    filters.outcome
      ? sql<boolean>`${sql.ref(outcome)} = ${filters.outcome} and ${sql.ref(outcome)} <> 'matched'`
      : sql<boolean>`${sql.ref(outcome)} is not null and ${sql.ref(outcome)} <> 'matched'`;
  // "Has one" as a lateral read of one row, not EXISTS: a planner may answer EXISTS by hashing every exception ever
  // recorded, where this asks each batch of the walk its own.
  let batches = db
    .selectFrom('remittance_batches as c')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('remittance_entries as x')
          .select('x.position')
          .whereRef('x.batch_id', '=', 'c.id')
          .where(isException('x.outcome'))
          .limit(1)
          .as('x'),
      (join) => join.onTrue(),
    )
    .select(['c.id', 'c.partner_id', 'c.environment', 'c.fundraiser_id', 'c.status', 'c.created_at']);
  if (filters.partnerId) batches = batches.where('c.partner_id', '=', filters.partnerId);
  if (filters.from) batches = batches.where('c.created_at', '>=', filters.from);
  if (filters.to) batches = batches.where('c.created_at', '<', filters.to);
  return db
    .selectFrom(batches.orderBy('c.created_at', 'desc').orderBy('c.id').limit(filters.limit).as('b'))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('remittance_entries as e')
          .selectAll('e')
          .whereRef('e.batch_id', '=', 'b.id')
          .where(isException('e.outcome'))
          .orderBy('e.position')
          .limit(filters.limit)
          .as('e'),
      (join) => join.onTrue(),
    )
    .innerJoin('partners as p', 'p.id', 'b.partner_id')
    .select(ENTRY_COLUMNS)
    .orderBy('b.created_at', 'desc')
    .orderBy('e.batch_id')
    .orderBy('e.position')
    .limit(filters.limit)
    .execute();
}
