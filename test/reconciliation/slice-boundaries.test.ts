import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, insertDonations, partnerOf, postBatch } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

/** One past the 5,000 entries a statement stores (remittances.ts) and receipts (receipts/issue.ts) at a time. */
const ENTRIES = 5_003;

/**
 * A batch bigger than one statement's worth of entries is stored, settled and receipted across the statements'
 * boundaries exactly as a small one: every entry at its position, every donation settled once, and receipt numbers
 * gapless in the order of the entries, the second slice's following the first's.
 */
describe('a batch across the statement boundaries of storing and receipting', () => {
  it('stores every entry, settles every donation and numbers the receipts in entry order', async () => {
    const donations = await insertDonations(t.db, await partnerOf(t.db, t.storefront.clientId), ENTRIES, 1250);
    const batchId = await postBatch(
      t,
      donations.map((id) => ({ bankReferenceId: bankReference(), amount: 12.5, donationIds: [id] })),
    );
    await t.reconcile();

    const batch = await t.db
      .selectFrom('remittance_batches')
      .select(['status', 'entry_count', 'total_cents'])
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    expect(batch).toMatchObject({ status: 'completed', entry_count: ENTRIES });
    expect(Number(batch.total_cents)).toBe(ENTRIES * 1250);

    const { rows } = await sql<{ position: number; donation_id: string; sequence: string | null }>`
      select e.position, e.donation_ids[1] as donation_id, r.sequence
      from remittance_entries e
      left join receipts r on r.donation_reference_id = e.donation_ids[1] and r.voided_at is null
      where e.batch_id = ${batchId}::uuid
      order by e.position`.execute(t.db);
    expect(rows.map((r) => r.position)).toEqual(Array.from({ length: ENTRIES }, (_, i) => i));
    expect(rows.map((r) => r.donation_id)).toEqual(donations);
    const sequences = rows.map((r) => Number(r.sequence));
    expect(sequences.every((n) => n > 0)).toBe(true);
    expect(sequences).toEqual(Array.from({ length: ENTRIES }, (_, i) => sequences[0]! + i));
  }, 120_000);
});
