import { sql, type Kysely, type Selectable } from 'kysely';
import type { EntryResult, EntryToReconcile } from '../../domain/reconciliation.js';
import type { Outcome } from '../../domain/remittance-outcomes.js';
import type { DB } from '../db/schema.js';
import type { RemittanceBatchesTable } from '../db/schema-reconciliation.js';
import { reportLockedForCompletion } from './report-snapshot.js';

/**
 * Reads and writes of a batch reconciliation. Every function is a fixed number of statements whatever the size of
 * what it is given (bulk reads, jsonb_to_recordset writes): no round trip per entry.
 */

export interface BatchToReconcile {
  id: string;
  partnerId: string;
  environment: string;
  status: string;
}

/** Moves a batch to `processing` (committed on its own, so partners see it) and counts the attempt. */
export async function startProcessing(db: Kysely<DB>, batchId: string): Promise<BatchToReconcile | undefined> {
  const row = await db
    .updateTable('remittance_batches')
    // The clock, not now() (the start of this transaction); coalesce keeps the first run's start across retries.
    .set({
      status: 'processing',
      started_at: sql`coalesce(started_at, clock_timestamp())`,
      attempts: sql`attempts + 1`,
    })
    .where('id', '=', batchId)
    .where('status', 'in', ['accepted', 'processing'])
    .returning(['id', 'partner_id', 'environment', 'status'])
    .executeTakeFirst();
  return row && { id: row.id, partnerId: row.partner_id, environment: row.environment, status: row.status };
}

/**
 * Above this many donations and bank references, a batch locks its partner's reconciliations as a whole rather
 * than each of its keys: every advisory lock takes a slot of PostgreSQL's shared lock table (64 per connection by
 * default), and a big batch would exhaust it.
 */
const MAX_KEY_LOCKS = 500;

/**
 * Serialises the reconciliations that could decide on the same facts, until the transaction ends. Batches of one
 * partner and environment share donations and bank references: a small batch locks exactly its own (the partner's
 * lock shared, then one exclusive lock per donation and per bank reference, all taken in one statement in a fixed
 * order, so two batches never wait on each other in a cycle); a batch naming more than MAX_KEY_LOCKS keys takes the
 * partner's lock exclusively. Batches with nothing in common, and other partners' batches, run in parallel.
 */
export async function lockReconciliationKeys(
  trx: Kysely<DB>,
  batch: { partnerId: string; environment: string },
  keys: { bankReferenceIds: string[]; donationIds: string[] },
) {
  const scope = `${batch.partnerId}:${batch.environment}`;
  const partnerKey = `reconciliation:${scope}`;
  const count = keys.bankReferenceIds.length + keys.donationIds.length;
  if (count > MAX_KEY_LOCKS) return lockPartnerReconciliations(trx, batch);
  // Donation reference ids are unique across partners: a foreign donation named by two partners is one key.
  const names = [
    ...keys.bankReferenceIds.map((id) => `reconciliation-bank:${scope}:${id}`),
    ...keys.donationIds.map((id) => `reconciliation-donation:${id}`),
  ];
  // One round trip: the uncorrelated subquery is an init plan, run once (the partner's shared lock) before the
  // first key is locked, so the order above holds. It is counted, not compared with null: a void result is not
  // null, and `is null` filtered every key out, so no key was ever locked.
  await sql`
    select count(pg_advisory_xact_lock(k)) from (
      select distinct hashtextextended(n, 0) as k from unnest(${names}::text[]) as n order by k
    ) as keys
    where (select count(pg_advisory_xact_lock_shared(hashtextextended(${partnerKey}, 0)))) = 1`.execute(trx);
}

/** The partner's reconciliations as a whole, exclusively: what a batch too big to lock key by key takes. */
export async function lockPartnerReconciliations(trx: Kysely<DB>, batch: { partnerId: string; environment: string }) {
  const partnerKey = `reconciliation:${batch.partnerId}:${batch.environment}`;
  await sql`select pg_advisory_xact_lock(hashtextextended(${partnerKey}, 0))`.execute(trx);
}

/**
 * The batch's status and entry count, row-locked. Locking the row first makes a second run of the same batch (its
 * job expired while the first worked) wait here, then find it completed. Only runs of this batch take this row, so
 * taking it before the reconciliation keys cannot close a cycle.
 */
export async function lockBatch(
  trx: Kysely<DB>,
  batchId: string,
): Promise<{ status: string; entryCount: number } | undefined> {
  const row = await trx
    .selectFrom('remittance_batches')
    .select(['status', 'entry_count'])
    .where('id', '=', batchId)
    .forUpdate()
    .executeTakeFirst();
  return row && { status: row.status, entryCount: row.entry_count };
}

/** The entries at positions `from` to `from + limit - 1`, in position order (entries never change once stored). */
export async function loadEntries(
  trx: Kysely<DB>,
  batchId: string,
  from: number,
  limit: number,
): Promise<EntryToReconcile[]> {
  const rows = await trx
    .selectFrom('remittance_entries')
    .select(['position', 'bank_reference_id', 'amount_cents', 'donation_ids'])
    .where('batch_id', '=', batchId)
    .where('position', '>=', from)
    .where('position', '<', from + limit)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({
    position: r.position,
    bankReferenceId: r.bank_reference_id,
    amountCents: Number(r.amount_cents),
    donationIds: r.donation_ids,
  }));
}

/**
 * Writes decisions: bank references claimed, donations settled, each entry's outcome. One statement per call (its
 * inserts are data-modifying CTEs, run to completion whether or not the update reads them; the settlements' foreign
 * key to their claims is checked at the statement's end), called once per chunk of the batch; later chunks read what
 * earlier ones wrote (same transaction). The primary keys of the claim and settlement tables reject a second
 * settlement even if the rules were bypassed, failing the whole transaction (the job is retried and decides again).
 */
export async function saveDecisions(trx: Kysely<DB>, batch: BatchToReconcile, results: readonly EntryResult[]) {
  const claims = results.flatMap((r) =>
    r.claim ? [{ b: r.claim.bankReferenceId, p: r.position, a: r.claim.amountCents, d: r.claim.donationIds }] : [],
  );
  const settlements = results.flatMap((r) =>
    r.settlements.map((s) => ({
      d: s.donationId,
      r: s.referenceId,
      a: s.amountCents,
      b: r.claim!.bankReferenceId,
      p: r.position,
    })),
  );
  const outcomes = results.map((r) => ({ p: r.position, o: r.outcome, d: r.detail }));
  await sql`
    with claimed as (
      insert into remittance_bank_references (partner_id, environment, bank_reference_id, batch_id, position, amount_cents, donation_ids)
      select ${batch.partnerId}::uuid, ${batch.environment}, c.b, ${batch.id}::uuid, c.p, c.a, c.d
      from jsonb_to_recordset(${JSON.stringify(claims)}::jsonb) as c(b text, p integer, a bigint, d text[])
    ),
    settled as (
      insert into donation_settlements (donation_id, donation_reference_id, partner_id, environment, bank_reference_id, batch_id, position, amount_cents)
      select s.d, s.r, ${batch.partnerId}::uuid, ${batch.environment}, s.b, ${batch.id}::uuid, s.p, s.a
      from jsonb_to_recordset(${JSON.stringify(settlements)}::jsonb) as s(d uuid, r text, a bigint, b text, p integer)
    )
    update remittance_entries e set outcome = r.o, outcome_detail = r.d
    from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as r(p integer, o text, d text)
    where e.batch_id = ${batch.id}::uuid and e.position = r.p`.execute(trx);
}

/** The batch's final status and counts, written last (returned for `remittance.completed`). */
export async function completeBatch(
  trx: Kysely<DB>,
  batch: BatchToReconcile,
  summary: { status: string; counts: Record<Outcome, number>; exceptions: number },
): Promise<CompletedBatch> {
  // completed_at is the clock at the final write (now() would be this transaction's start), and readers of the
  // report wait for the commit from the moment before it is read (report-snapshot.ts).
  return trx
    .updateTable('remittance_batches')
    .set({
      status: summary.status,
      outcome_counts: JSON.stringify(summary.counts),
      exception_count: summary.exceptions,
      completed_at: sql`clock_timestamp()`,
    })
    .where('id', '=', batch.id)
    .where(reportLockedForCompletion(batch.id))
    .returning(COMPLETED_BATCH_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** What `remittance.completed` says of the batch, returned by its final write (no read after it). */
const COMPLETED_BATCH_COLUMNS = [
  'id',
  'partner_id',
  'environment',
  'status',
  'channel',
  'fundraiser_id',
  'total_cents',
  'created_at',
  'completed_at',
] as const;
export type CompletedBatch = Pick<Selectable<RemittanceBatchesTable>, (typeof COMPLETED_BATCH_COLUMNS)[number]>;
