import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, mixedBatch, outcomes, postBatch, report, settlementsOf } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

/** The outcomes stored for operators (the CLI reads these), in entry order. */
async function storedOutcomes(batchId: string) {
  const rows = await t.db
    .selectFrom('remittance_entries')
    .select('outcome')
    .where('batch_id', '=', batchId)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.outcome);
}

/** Posts one batch, runs the waiting reconciliation jobs, returns the partner's report. */
async function reconcile(entries: Parameters<typeof postBatch>[1], options?: Parameters<typeof postBatch>[2]) {
  const batchId = await postBatch(t, entries, options);
  await t.reconcile();
  return report(t, batchId, options?.as);
}

describe('reconciliation outcomes, one per entry', () => {
  it('matched: the entry amount equals the donations total; each donation is settled with bank reference, amount and time', async () => {
    const a = await donate(t, '10.00');
    const b = await donate(t, '15.50');
    const ref = bankReference();
    const before = Date.now();
    const r = await reconcile([{ bankReferenceId: ref, amount: 25.5, donationIds: [a, b] }]);
    expect(r.status).toBe('completed');
    expect(r.entries[0]).toMatchObject({
      index: 0,
      outcome: 'matched',
      bankReferenceId: ref,
      amount: 25.5,
      donationIds: [a, b],
    });
    const settled = await settlementsOf(t.db, [a, b]);
    expect(
      settled.map((s) => [s.donation_reference_id, s.bank_reference_id, Number(s.amount_cents), s.batch_id]),
    ).toEqual(
      [
        [a, ref, 1000, r.batchId],
        [b, ref, 1550, r.batchId],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    for (const s of settled) expect(new Date(s.settled_at).getTime()).toBeGreaterThanOrEqual(before - 5000);
  });

  it('amount_mismatch: the entry amount differs from the donations total, and nothing is settled', async () => {
    const a = await donate(t, '10.00');
    const r = await reconcile([{ bankReferenceId: bankReference(), amount: 10.01, donationIds: [a] }]);
    expect(r.status).toBe('completed_with_exceptions');
    expect(r.entries[0]!.outcome).toBe('amount_mismatch');
    expect(r.entries[0]!.detail).toContain("10.01 AUD differs from the donations' total 10.00 AUD");
    expect(await settlementsOf(t.db, [a])).toEqual([]);
  });

  it('amount_mismatch: a donation recorded without an amount cannot be proved to add up', async () => {
    const noAmount = await donate(t, null);
    const r = await reconcile([{ bankReferenceId: bankReference(), amount: 20, donationIds: [noAmount] }]);
    expect(r.entries[0]!.outcome).toBe('amount_mismatch');
    expect(r.entries[0]!.detail).toContain(`recorded without an amount cannot be reconciled: ${noAmount}`);
    expect(await settlementsOf(t.db, [noAmount])).toEqual([]);
  });

  it('unknown_donation: an id that names no donation at all', async () => {
    const a = await donate(t, '5.00');
    const r = await reconcile([
      { bankReferenceId: bankReference(), amount: 5, donationIds: [a, 'DON-DOES-NOT-EXIST'] },
    ]);
    expect(r.entries[0]!.outcome).toBe('unknown_donation');
    expect(r.entries[0]!.detail).toContain('DON-DOES-NOT-EXIST');
    expect(await settlementsOf(t.db, [a])).toEqual([]);
  });

  it("foreign_donation: another partner's donation, or one of another environment", async () => {
    const theirs = await donate(t, '7.00', { channel: 'Registration Integration', as: t.registration });
    const otherEnvironment = await donate(t, '8.00');
    await t.db
      .updateTable('donations')
      .set({ environment: 'uat' })
      .where('reference_id', '=', otherEnvironment)
      .execute();
    const r = await reconcile([
      { bankReferenceId: bankReference(), amount: 7, donationIds: [theirs] },
      { bankReferenceId: bankReference(), amount: 8, donationIds: [otherEnvironment] },
      { bankReferenceId: bankReference(), amount: 9, donationIds: ['DON-NO-SUCH-ID'] },
    ]);
    // Operators see the difference; the partner reads another's donation exactly as an unknown id
    // (docs/decisions/0032-another-partners-objects-look-unknown.md).
    expect(await storedOutcomes(r.batchId)).toEqual(['foreign_donation', 'foreign_donation', 'unknown_donation']);
    expect(outcomes(r)).toEqual(['unknown_donation', 'unknown_donation', 'unknown_donation']);
    expect(r.entries.map((e) => e.detail)).toEqual([
      `Unknown donation ids: ${theirs}.`,
      `Unknown donation ids: ${otherEnvironment}.`,
      'Unknown donation ids: DON-NO-SUCH-ID.',
    ]);
    expect(r.counts.byOutcome).toMatchObject({ unknown_donation: 3, foreign_donation: 0 });
    expect(await settlementsOf(t.db, [theirs, otherEnvironment])).toEqual([]);
  });

  it('already_settled: a donation settled by another bank reference is never settled twice', async () => {
    const a = await donate(t, '12.00');
    const first = bankReference();
    expect(outcomes(await reconcile([{ bankReferenceId: first, amount: 12, donationIds: [a] }]))).toEqual(['matched']);
    const r = await reconcile([{ bankReferenceId: bankReference(), amount: 12, donationIds: [a] }]);
    expect(r.entries[0]!.outcome).toBe('already_settled');
    expect(r.entries[0]!.detail).toContain(`${a} (by ${first})`);
    expect((await settlementsOf(t.db, [a])).map((s) => s.bank_reference_id)).toEqual([first]);
  });

  it('duplicate_bank_reference: the same bank reference posted again with other content', async () => {
    const a = await donate(t, '3.00');
    const b = await donate(t, '4.00');
    const ref = bankReference();
    await reconcile([{ bankReferenceId: ref, amount: 3, donationIds: [a] }]);
    const r = await reconcile([
      { bankReferenceId: ref, amount: 4, donationIds: [b] },
      { bankReferenceId: ref, amount: 3, donationIds: [a, b] },
    ]);
    expect(outcomes(r)).toEqual(['duplicate_bank_reference', 'duplicate_bank_reference']);
    expect(await settlementsOf(t.db, [b])).toEqual([]);
  });

  it('the identical entry posted again is a no-op, not an error: still matched, nothing settled again', async () => {
    const a = await donate(t, '6.00');
    const b = await donate(t, '1.50');
    const ref = bankReference();
    const first = await reconcile([{ bankReferenceId: ref, amount: 7.5, donationIds: [a, b] }]);
    const settledBefore = await settlementsOf(t.db, [a, b]);
    // Same content, donation ids in another order and one listed twice: still the same bank transaction.
    const again = await reconcile([{ bankReferenceId: ref, amount: 7.5, donationIds: [b, a, b] }]);
    expect(again.status).toBe('completed');
    expect(again.entries[0]!.outcome).toBe('matched');
    expect(again.entries[0]!.detail).toContain(`Already reconciled as batch ${first.batchId}, entry 0`);
    expect(await settlementsOf(t.db, [a, b])).toEqual(settledBefore);
  });

  it('an entry that failed does not hold its bank reference: corrected and posted again, it matches', async () => {
    const a = await donate(t, '9.00');
    const ref = bankReference();
    expect(outcomes(await reconcile([{ bankReferenceId: ref, amount: 9.9, donationIds: [a] }]))).toEqual([
      'amount_mismatch',
    ]);
    expect(outcomes(await reconcile([{ bankReferenceId: ref, amount: 9, donationIds: [a] }]))).toEqual(['matched']);
  });
});

describe('several problems on one entry: precedence (docs/reconciliation.md)', () => {
  it('bank reference first, then unknown, foreign, already settled, amount; the detail names every problem', async () => {
    const mine = await donate(t, '2.00');
    const theirs = await donate(t, '2.00', { channel: 'Registration Integration', as: t.registration });
    const settled = await donate(t, '2.00');
    const ref = bankReference();
    await reconcile([{ bankReferenceId: ref, amount: 2, donationIds: [settled] }]);

    const r = await reconcile([
      { bankReferenceId: bankReference(), amount: 1, donationIds: [mine, theirs, 'DON-NOPE', settled] },
      { bankReferenceId: bankReference(), amount: 1, donationIds: [mine, theirs, settled] },
      { bankReferenceId: bankReference(), amount: 1, donationIds: [mine, settled] },
      { bankReferenceId: ref, amount: 1, donationIds: ['DON-NOPE'] },
    ]);
    expect(await storedOutcomes(r.batchId)).toEqual([
      'unknown_donation',
      'foreign_donation',
      'already_settled',
      'duplicate_bank_reference',
    ]);
    // The partner's report: another partner's donation is one more unknown id.
    expect(outcomes(r)).toEqual([
      'unknown_donation',
      'unknown_donation',
      'already_settled',
      'duplicate_bank_reference',
    ]);
    const unknownIds = (ids: string[]) => [...ids].sort().join(', ');
    expect(r.entries[0]!.detail).toMatch(
      new RegExp(
        `^Unknown donation ids: ${unknownIds(['DON-NOPE', theirs])}\\. Already settled by another bank reference: .+\\.$`,
      ),
    );
    expect(r.entries[1]!.detail).toMatch(
      new RegExp(`^Unknown donation ids: ${theirs}\\. Already settled by another bank reference: .+\\.$`),
    );
    expect(r.entries[2]!.detail).toContain('Already settled');
    expect(r.entries[2]!.detail).toContain('differs from the donations');
  });
});

describe('mixed batches', () => {
  it('decides every entry, counts the outcomes and ends completed_with_exceptions', async () => {
    const r = await reconcile((await mixedBatch(t)).entries);
    expect(outcomes(r)).toEqual([
      'matched',
      'matched',
      'amount_mismatch',
      'already_settled',
      'duplicate_bank_reference',
      'matched',
      'unknown_donation',
    ]);
    expect(r.status).toBe('completed_with_exceptions');
    expect(r.counts).toEqual({
      entries: 7,
      pending: 0,
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
    expect(r.entries[3]!.detail).toContain('by BANK-');
    expect(r.entries[5]!.detail).toContain('Already reconciled as entry 0 of this batch');
    const batch = await t.db
      .selectFrom('remittance_batches')
      .selectAll()
      .where('id', '=', r.batchId)
      .executeTakeFirstOrThrow();
    expect(batch).toMatchObject({ status: 'completed_with_exceptions', exception_count: 4, attempts: 1 });
    expect(batch.outcome_counts).toMatchObject({ matched: 3, amount_mismatch: 1 });
    expect(batch.started_at).not.toBeNull();
    expect(batch.completed_at).not.toBeNull();
  });

  it('a batch where every entry matches ends completed', async () => {
    const a = await donate(t, '1.00');
    const b = await donate(t, '2.00');
    const r = await reconcile([
      { bankReferenceId: bankReference(), amount: 1, donationIds: [a] },
      { bankReferenceId: bankReference(), amount: 2, donationIds: [b] },
    ]);
    expect(r.status).toBe('completed');
    expect(r.counts).toMatchObject({ entries: 2, pending: 0, matched: 2, exceptions: 0 });
  });
});
