import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';
import { advance, confirmedMandate, eventsOf, startPlan, todayOf } from '../recurring/support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 180_000);
afterAll(async () => t?.close(), 60_000);

async function donation(amount = '20.00') {
  const response = await t.post('/donations', donationBody({ amount }));
  return response.json().data.items.donationReferenceId as string;
}
const reverse = (reference: string, body: Record<string, unknown>, options: Parameters<TestApp['post']>[2] = {}) =>
  t.post(`/donations/${reference}/reversals`, body, options);
const read = async (reference: string) => (await t.get(`/donations/${reference}`)).json().data.items;

async function remit(entries: { ref: string; amount: number; ids: string[] }[]) {
  const posted = await t.post('/remittances', {
    source: { channel: 'Storefront App', fundraiserId: '10000001' },
    remittances: entries.map((e) => ({ bankReferenceId: e.ref, amount: e.amount, donationIds: e.ids })),
  });
  expect(posted.statusCode).toBe(202);
  await t.reconcile();
  return (await t.get(`/remittances/${posted.json().data.items.batchId}`)).json().data.items;
}

describe('POST /donations/{id}/reversals', () => {
  it('reverses part, then the rest, and never more than the donation', async () => {
    const ref = await donation('20.00');
    const part = await reverse(ref, { amount: '5', reason: 'refunded' });
    expect(part.statusCode).toBe(201);
    expect(part.headers.location).toBe(`/v1/donations/${ref}`);
    expect(part.json().data.items).toMatchObject({
      amount: '5.00',
      reason: 'refunded',
      requestedBy: 'partner',
      owedBack: false,
    });

    const tooMuch = await reverse(ref, { amount: '15.01', reason: 'refunded' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.cause).toBe(`amount: at most 15.00 of donation ${ref} is left to reverse`);

    expect((await reverse(ref, { amount: '15', reason: 'duplicate' })).statusCode).toBe(201);
    const again = await reverse(ref, { amount: '1', reason: 'error' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.cause).toBe(`Donation ${ref} is already reversed in full`);

    expect(await read(ref)).toMatchObject({
      amount: '20.00',
      reversedAmount: '20.00',
      netAmount: '0.00',
      owedBack: '0.00',
      settlement: null,
      reversals: [expect.objectContaining({ amount: '5.00' }), expect.objectContaining({ amount: '15.00' })],
    });
    const told = (await eventsOf(t)).filter(
      (e) => e.type === 'donation.reversed' && e.data.reversal.donationReferenceId === ref,
    );
    expect(told.map((e) => e.data.netAmount)).toEqual(['15.00', '0.00']);
  });

  it('replays a retry by transaction.id and by Idempotency-Key, and refuses the same id with other content', async () => {
    const ref = await donation('10.00');
    const body = { amount: '4', reason: 'refunded', transaction: { id: 'refund-1' } };
    const first = await reverse(ref, body);
    const retry = await reverse(ref, body);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().data.items.reversalId).toBe(first.json().data.items.reversalId);
    expect((await reverse(ref, { ...body, amount: '5' })).statusCode).toBe(409);

    const keyed = { headers: { 'idempotency-key': 'rev-key-1' } };
    const once = await reverse(ref, { amount: '1', reason: 'error' }, keyed);
    const twice = await reverse(ref, { amount: '1', reason: 'error' }, keyed);
    expect(twice.headers['idempotent-replayed']).toBe('true');
    expect(twice.json().data.items.reversalId).toBe(once.json().data.items.reversalId);
    expect((await read(ref)).reversedAmount).toBe('5.00');
  });

  it('decides concurrent reversals one by one: never more than the donation', async () => {
    const ref = await donation('20.00');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => reverse(ref, { amount: '3', reason: 'refunded' })),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(6);
    expect(statuses.filter((s) => s === 400)).toHaveLength(4);
    expect(await read(ref)).toMatchObject({ reversedAmount: '18.00', netAmount: '2.00' });
  });

  it('answers another partner’s donation like an unknown one, and refuses a reason partners cannot give', async () => {
    const ref = await donation();
    const foreign = await reverse(ref, { amount: '1', reason: 'refunded' }, { as: t.registration });
    const unknown = await reverse('DON-UNKNOWN0000000', { amount: '1', reason: 'refunded' }, { as: t.registration });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe(unknown.json().error.message);
    expect((await t.get(`/donations/${ref}`, { as: t.registration })).statusCode).toBe(404);
    const disputed = await reverse(ref, { amount: '1', reason: 'disputed' });
    expect(disputed.statusCode).toBe(400);
    expect(disputed.json().error.cause).toContain('reason');
  });
});

describe('reconciliation follows net amounts', () => {
  it('matches an entry of the net amount, and names a donation reversed in full', async () => {
    const partly = await donation('20.00');
    const wholly = await donation('8.00');
    await reverse(partly, { amount: '5', reason: 'refunded' });
    await reverse(wholly, { amount: '8', reason: 'fraudulent' });
    const report = await remit([
      { ref: 'NET-1', amount: 15, ids: [partly] },
      { ref: 'NET-2', amount: 8, ids: [wholly] },
    ]);
    expect(report.entries.map((e: { outcome: string }) => e.outcome)).toEqual(['matched', 'reversed_donation']);
    // The detail names every problem found: the amount no longer adds up either.
    expect(report.entries[1].detail).toBe(
      `Reversed in full: ${wholly}. Entry amount 8.00 AUD differs from the donations' total net of reversals 0.00 AUD.`,
    );
    expect(report.counts.byOutcome.reversed_donation).toBe(1);
  });

  it('owes back what is reversed after settlement, and shows how the donation was settled', async () => {
    const ref = await donation('12.00');
    const report = await remit([{ ref: 'OWED-1', amount: 12, ids: [ref] }]);
    expect(report.entries[0].outcome).toBe('matched');
    const reversal = await reverse(ref, { amount: '2.50', reason: 'refunded' });
    expect(reversal.json().data.items.owedBack).toBe(true);
    expect(await read(ref)).toMatchObject({
      netAmount: '9.50',
      owedBack: '2.50',
      settlement: { by: 'remittance', bankReferenceId: 'OWED-1', entryIndex: 0, batchId: report.batchId },
    });
  });
});

describe('a disputed debit', () => {
  it('becomes a reversal with reason disputed, by itself, owed back', async () => {
    const mandateId = await confirmedMandate(t, '000222227');
    const plan = await startPlan(t, {
      mandateId,
      amount: '30',
      frequency: 'monthly',
      startDate: await todayOf(t),
      numberOfDebits: 1,
    });
    await advance(t, 'P3D');
    const debit = (await t.get(`/recurring-donations/${plan.recurringDonationId}`)).json().data.items.debits[0];
    expect(debit.disputedAt).not.toBeNull();
    expect(await read(debit.donationReferenceId)).toMatchObject({
      collectedBy: 'foundation',
      netAmount: '0.00',
      owedBack: '30.00',
      settlement: { by: 'debit', debitId: debit.debitId },
      reversals: [expect.objectContaining({ reason: 'disputed', requestedBy: 'payment provider', amount: '30.00' })],
    });
  });
});
