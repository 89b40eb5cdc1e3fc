import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/calendar-date.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { advance, confirmedMandate, eventsOf, startPlan, todayOf } from './support.js';

let t: TestApp;
beforeAll(async () => {
  // Retries 3 then 7 days after a failure; a plan is canceled after two debits failed for good in a row.
  t = await startTestApp({ env: { RECURRING_RETRY_DELAYS_DAYS: '3,7', RECURRING_CANCEL_AFTER_FAILED_DEBITS: '2' } });
}, 180_000);
afterAll(async () => t?.close(), 60_000);

const readPlan = async (id: string) => (await t.get(`/recurring-donations/${id}`)).json().data.items;

async function monthlyPlanOn(accountNumber: string, extra: Record<string, unknown> = {}) {
  const mandateId = await confirmedMandate(t, accountNumber);
  const plan = await startPlan(t, {
    mandateId,
    amount: '25',
    frequency: 'monthly',
    startDate: await todayOf(t),
    ...extra,
  });
  return { mandateId, planId: plan.recurringDonationId };
}

describe('what the bank answers, in the sandbox', () => {
  it('retries a debit that failed once, and collects it on its retry', async () => {
    const { planId } = await monthlyPlanOn('000111124', { numberOfDebits: 1 });
    await advance(t, 'P2D');
    let plan = await readPlan(planId);
    expect(plan.debits[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      failure: { code: 'insufficient_funds', message: 'Insufficient funds in the account' },
    });
    expect(plan.debits[0].nextAttemptOn).toBe(addDays(plan.debits[0].dueDate, 5));
    expect(plan.status).toBe('active');

    await advance(t, 'P6D');
    plan = await readPlan(planId);
    expect(plan.debits[0]).toMatchObject({ status: 'succeeded', attempts: 2, failure: null, nextAttemptOn: null });
    expect(plan.debits[0].donationReferenceId).toMatch(/^DON-/);
    expect(plan.status).toBe('completed');
  });

  it('makes a plan past_due after a debit’s last try, then cancels it after the next one fails too', async () => {
    const { planId } = await monthlyPlanOn('000111116');
    await advance(t, 'P20D');
    let plan = await readPlan(planId);
    expect(plan.debits[0]).toMatchObject({ status: 'failed', attempts: 3, nextAttemptOn: null });
    expect(plan.status).toBe('past_due');
    expect(plan.nextDebitDate).not.toBeNull();

    await advance(t, 'P1M');
    plan = await readPlan(planId);
    expect(plan.debits.map((d: { status: string; attempts: number }) => [d.status, d.attempts])).toEqual([
      ['failed', 3],
      ['failed', 3],
    ]);
    expect(plan).toMatchObject({ status: 'canceled', canceledReason: 'Debits failed after their last try' });

    const events = (await eventsOf(t)).filter((e) =>
      [e.data.debit?.recurringDonationId, e.data.recurringDonation?.recurringDonationId].includes(planId),
    );
    expect(events.filter((e) => e.type === 'recurring_donation.debit_failed')).toHaveLength(6);
    expect(events.filter((e) => e.type === 'recurring_donation.canceled')).toHaveLength(1);
    expect(events.at(-1)!.type).toBe('recurring_donation.canceled');
  });

  it('does not retry a closed account, and ends the mandate and every plan on it', async () => {
    const { mandateId, planId } = await monthlyPlanOn('000333335');
    const second = await startPlan(t, {
      mandateId,
      amount: '5',
      frequency: 'weekly',
      startDate: addDays(await todayOf(t), 10),
    });
    await advance(t, 'P3D');
    const plan = await readPlan(planId);
    expect(plan.debits[0]).toMatchObject({ status: 'failed', attempts: 1, nextAttemptOn: null });
    expect(plan.debits[0].failure.code).toBe('account_closed');
    expect(plan).toMatchObject({ status: 'canceled', canceledReason: 'The mandate can no longer be debited' });
    expect((await readPlan(second.recurringDonationId)).status).toBe('canceled');
    const mandate = (await t.get('/mandates', { query: { id: mandateId } })).json().data.items;
    expect(mandate.mandate.status).toBe('inactive');
    const refused = await t.post('/recurring-donations', {
      mandateId,
      amount: '5',
      frequency: 'weekly',
      startDate: await todayOf(t),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.cause).toContain('revoked');
  });

  it('records a dispute of a collected debit', async () => {
    const { planId } = await monthlyPlanOn('000222227', { numberOfDebits: 1 });
    await advance(t, 'P3D');
    const plan = await readPlan(planId);
    expect(plan.debits[0].status).toBe('succeeded');
    expect(plan.debits[0].disputedAt).not.toBeNull();
  });
});

describe('one-off debits', () => {
  it('debits a mandate once, keyed by transaction.id, and becomes a donation settled at once', async () => {
    const mandateId = await confirmedMandate(t);
    const request = { amount: '7.35', transaction: { id: 'roundup-2027-01' } };
    const created = await t.post(`/mandates/${mandateId}/debits`, request);
    expect(created.statusCode).toBe(201);
    const debit = created.json().data.items;
    expect(debit).toMatchObject({ recurringDonationId: null, transactionId: 'roundup-2027-01', status: 'scheduled' });
    expect(created.headers.location).toBe(`/v1/debits/${debit.debitId}`);
    const retried = await t.post(`/mandates/${mandateId}/debits`, request);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data.items.debitId).toBe(debit.debitId);
    expect((await t.post(`/mandates/${mandateId}/debits`, { ...request, amount: '8' })).statusCode).toBe(409);

    await t.recurring.runPending();
    expect((await t.get(`/debits/${debit.debitId}`)).json().data.items.status).toBe('processing');
    await advance(t, 'P2D');
    const done = (await t.get(`/debits/${debit.debitId}`)).json().data.items;
    expect(done.status).toBe('succeeded');
    const settlement = await t.db
      .selectFrom('donation_settlements')
      .innerJoin('donations', 'donations.id', 'donation_settlements.donation_id')
      .select([
        'donation_settlements.debit_id',
        'donations.collected_by',
        'donations.amount_cents',
        'donations.is_live',
      ])
      .where('donations.reference_id', '=', done.donationReferenceId)
      .executeTakeFirstOrThrow();
    expect(settlement).toMatchObject({ debit_id: debit.debitId, collected_by: 'foundation', is_live: false });
    expect(Number(settlement.amount_cents)).toBe(735);
    expect((await t.get(`/debits/${debit.debitId}`, { as: t.registration })).statusCode).toBe(404);
  });
});
