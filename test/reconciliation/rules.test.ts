import { describe, expect, it } from 'vitest';
import { countOutcomes } from '../../src/domain/outcome-tally.js';
import { reconcileEntries, type BankReferenceClaim, type DonationFacts } from '../../src/domain/reconciliation.js';

const own = (referenceId: string, amountCents: number | null, settledBy: string | null = null): DonationFacts => ({
  donationId: `id-${referenceId}`,
  referenceId,
  own: true,
  amountCents,
  reversedCents: 0,
  settledBy,
});
const facts = (...list: DonationFacts[]) => new Map(list.map((d) => [d.referenceId, d]));
const entry = (position: number, bankReferenceId: string, amountCents: number, donationIds: string[]) => ({
  position,
  bankReferenceId,
  amountCents,
  donationIds,
});

describe('reconcileEntries (pure rules)', () => {
  it('decides in position order whatever order the entries come in: the first matching entry settles a shared donation', () => {
    const results = reconcileEntries({
      batchId: 'B',
      entries: [entry(1, 'R2', 500, ['D1']), entry(0, 'R1', 500, ['D1'])],
      donations: facts(own('D1', 500)),
      claims: new Map(),
    });
    expect(results.map((r) => [r.position, r.outcome])).toEqual([
      [0, 'matched'],
      [1, 'already_settled'],
    ]);
    expect(results[1]!.detail).toBe('Already settled by another bank reference: D1 (by R1).');
  });

  it('an entry that fails settles nothing, so a later entry naming the same donation can still match', () => {
    const results = reconcileEntries({
      batchId: 'B',
      entries: [entry(0, 'R1', 499, ['D1']), entry(1, 'R2', 500, ['D1'])],
      donations: facts(own('D1', 500)),
      claims: new Map(),
    });
    expect(results.map((r) => r.outcome)).toEqual(['amount_mismatch', 'matched']);
    expect(results[1]!.settlements).toEqual([{ donationId: 'id-D1', referenceId: 'D1', amountCents: 500 }]);
  });

  it('counts a donation listed twice in one entry once', () => {
    const [result] = reconcileEntries({
      batchId: 'B',
      entries: [entry(0, 'R1', 500, ['D1', 'D1'])],
      donations: facts(own('D1', 500)),
      claims: new Map(),
    });
    expect(result!.outcome).toBe('matched');
    expect(result!.claim!.donationIds).toEqual(['D1']);
  });

  it('compares a replayed bank reference by amount and the set of donations', () => {
    const claim: BankReferenceClaim = {
      bankReferenceId: 'R1',
      amountCents: 800,
      donationIds: ['D1', 'D2'],
      batchId: 'OLD',
      position: 3,
    };
    const results = reconcileEntries({
      batchId: 'B',
      entries: [entry(0, 'R1', 800, ['D2', 'D1']), entry(1, 'R1', 800, ['D1']), entry(2, 'R1', 801, ['D1', 'D2'])],
      donations: facts(own('D1', 300, 'R1'), own('D2', 500, 'R1')),
      claims: new Map([['R1', claim]]),
    });
    expect(results.map((r) => r.outcome)).toEqual(['matched', 'duplicate_bank_reference', 'duplicate_bank_reference']);
    expect(results[0]!.settlements).toEqual([]);
    expect(results[0]!.claim).toBeUndefined();
    expect(results[1]!.detail).toBe(
      'Bank reference R1 was already reconciled as batch OLD, entry 3 with amount 8.00 AUD and donations D1, D2; this entry differs.',
    );
  });

  it('treats a donation without an amount as an amount mismatch, even when the others add up', () => {
    const [result] = reconcileEntries({
      batchId: 'B',
      entries: [entry(0, 'R1', 500, ['D1', 'D2'])],
      donations: facts(own('D1', 500), own('D2', null)),
      claims: new Map(),
    });
    expect(result!.outcome).toBe('amount_mismatch');
    expect(result!.detail).toBe('Donations recorded without an amount cannot be reconciled: D2.');
  });

  it('counts every outcome, zero included', () => {
    expect(countOutcomes([{ outcome: 'matched' }, { outcome: 'matched' }, { outcome: 'foreign_donation' }])).toEqual({
      matched: 2,
      amount_mismatch: 0,
      unknown_donation: 0,
      foreign_donation: 1,
      already_settled: 0,
      reversed_donation: 0,
      duplicate_bank_reference: 0,
    });
  });
});
