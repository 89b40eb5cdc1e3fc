import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { slices } from './slices.js';

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
  entries: NewRemittanceEntry[];
}

/** Stores a batch and all its entries: two statements, whatever the batch size. Call inside a transaction. */
const ENTRIES_PER_STATEMENT = 5000;

export async function insertRemittanceBatch(db: Kysely<DB>, batch: NewRemittanceBatch): Promise<string> {
  const totalCents = batch.entries.reduce((sum, entry) => sum + entry.amountCents, 0);
  const { id } = await db
    .insertInto('remittance_batches')
    .values({
      partner_id: batch.partnerId,
      environment: batch.environment,
      channel: batch.channel,
      fundraiser_id: batch.fundraiserId,
      account_id: batch.accountId,
      entry_count: batch.entries.length,
      total_cents: totalCents,
      request_hash: batch.requestHash,
      correlation_id: batch.correlationId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // In statements of ENTRIES_PER_STATEMENT: a 100,000-entry batch as one 9 MB parameter was the service's peak of
  // memory (the JSON text, then pg's copy of it); a chunk costs one round trip more per 5,000 entries.
  for (const { start, slice } of slices(batch.entries, ENTRIES_PER_STATEMENT)) {
    const rows = slice.map((entry, i) => ({
      p: start + i,
      b: entry.bankReferenceId,
      a: entry.amountCents,
      d: entry.donationIds,
    }));
    await sql`
      insert into remittance_entries (batch_id, position, bank_reference_id, amount_cents, donation_ids)
      select ${id}::uuid, e.p, e.b, e.a, array(select jsonb_array_elements_text(e.d))
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as e(p integer, b text, a bigint, d jsonb)`.execute(db);
  }
  return id;
}
