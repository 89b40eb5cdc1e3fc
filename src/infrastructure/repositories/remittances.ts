import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface NewRemittanceEntry {
  bankReferenceId: string;
  amountCents: number;
  donationIds: string[];
}

export interface NewRemittanceBatch {
  partnerId: string;
  environment: string;
  channel: string;
  fundraiserId: string;
  accountId: string;
  requestHash: string;
  correlationId: string;
  entryCount: number;
  totalCents: number;
  /** The entries as remittanceRows texts, in position order. */
  rowChunks: readonly string[];
}

/** Entries per statement (see insertRemittanceBatch): how many a remittanceRows text holds. */
/**
 * Entries per statement: a 100,000-entry batch as one 9 MB parameter was the service's peak of memory (the JSON
 * text, then pg's copy of it).
 */
export const ENTRIES_PER_STATEMENT = 5000;

/**
 * The JSON text of up to ENTRIES_PER_STATEMENT entries from position `start`, as insertRemittanceBatch reads it:
 * built while a body is read, it is all that is held of the entries until they are stored.
 */
export function remittanceRows(entries: readonly NewRemittanceEntry[], start: number): string {
  return JSON.stringify(
    entries.map((entry, i) => ({ p: start + i, b: entry.bankReferenceId, a: entry.amountCents, d: entry.donationIds })),
  );
}

/** The donation ids of a remittanceRows text. */
export function donationIdsOfRows(rows: string): string[] {
  return (JSON.parse(rows) as { d: string[] }[]).flatMap((row) => row.d);
}

/**
 * Stores a batch and all its entries, inside the caller's transaction: one statement for the batch and its first
 * ENTRIES_PER_STATEMENT entries (the entries' reference to the batch is checked at the statement's end,
 * docs/decisions/0050-references-checked-per-statement.md), then one per further ENTRIES_PER_STATEMENT.
 */
export async function insertRemittanceBatch(db: Kysely<DB>, batch: NewRemittanceBatch): Promise<string> {
  let id: string | undefined;
  for (const rows of batch.rowChunks) {
    const batchId = id
      ? sql`(select ${id}::uuid as id)`
      : sql`(
        insert into remittance_batches (partner_id, environment, channel, fundraiser_id, account_id, entry_count,
          total_cents, request_hash, correlation_id)
        values (${batch.partnerId}::uuid, ${batch.environment}, ${batch.channel}, ${batch.fundraiserId},
          ${batch.accountId}::uuid, ${batch.entryCount}::integer, ${batch.totalCents}::bigint, ${batch.requestHash},
          ${batch.correlationId}::uuid)
        returning id)`;
    const { rows: stored } = await sql<{ id: string }>`
      with batch as ${batchId},
      entries as (
        insert into remittance_entries (batch_id, position, bank_reference_id, amount_cents, donation_ids)
        select batch.id, e.p, e.b, e.a, e.d
        from batch, jsonb_to_recordset(${rows}::jsonb) as e(p integer, b text, a bigint, d text[])
      )
      select id::text from batch`.execute(db);
    id = stored[0]!.id;
  }
  if (!id) throw new Error('a remittance batch has at least one entry');
  return id;
}
