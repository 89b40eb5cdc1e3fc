import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileBatch } from '../../src/services/reconciliation/reconcile-batch.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { mixedBatch, outcomes, postBatch, report, settlementsOf } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

interface CompletedEvent {
  type: string;
  data: { batchId: string; counts: unknown; amounts: unknown };
}

/**
 * A batch is decided a chunk at a time (RECONCILIATION_CHUNK entries): the rules must come out as if it were
 * decided whole. Chunks of two entries put every rule that looks back at earlier entries of the batch across a
 * chunk boundary: a donation settled by an earlier chunk, a bank reference claimed by an earlier chunk.
 */
describe('reconciliation in chunks', () => {
  it('decides across chunk boundaries exactly as a batch decided whole, and the event adds up every chunk', async () => {
    const { donations, entries } = await mixedBatch(t);
    const [a, b, c, d] = donations;
    const batchId = await postBatch(t, entries);

    const result = await reconcileBatch(t.db, batchId, undefined, '', 2);

    expect(result).toMatchObject({ ran: true, status: 'completed_with_exceptions', exceptions: 4 });
    const r = await report(t, batchId);
    // The same outcomes as test/reconciliation/outcomes.test.ts › "mixed batches", decided whole.
    expect(outcomes(r)).toEqual([
      'matched',
      'matched',
      'amount_mismatch',
      'already_settled',
      'duplicate_bank_reference',
      'matched',
      'unknown_donation',
    ]);
    expect(r.entries[3]!.detail).toContain('by BANK-');
    expect(r.entries[5]!.detail).toContain('Already reconciled as entry 0 of this batch');
    expect((await settlementsOf(t.db, [a, b, c, d])).map((s) => s.donation_reference_id).sort()).toEqual(
      [a, b, c].sort(),
    );
    const events = (await t.get('/events')).json().data.items.events as CompletedEvent[];
    const completed = events.find((e) => e.type === 'remittance.completed' && e.data.batchId === batchId);
    expect(completed?.data.counts).toEqual({
      entries: 7,
      matched: 3,
      exceptions: 4,
      byOutcome: {
        matched: 3,
        amount_mismatch: 1,
        unknown_donation: 1,
        foreign_donation: 0,
        already_settled: 1,
        reversed_donation: 0,
        duplicate_bank_reference: 1,
      },
    });
    expect(completed?.data.amounts).toEqual({
      total: 143,
      matched: 70,
      exceptions: 73,
      byOutcome: {
        matched: 70,
        amount_mismatch: 41,
        unknown_donation: 1,
        foreign_donation: 0,
        already_settled: 20,
        reversed_donation: 0,
        duplicate_bank_reference: 11,
      },
    });
  });
});
