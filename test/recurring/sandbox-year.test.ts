import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from '../../src/domain/calendar-date.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { registerEndpoint, startReceiver, verify, webhookWorker } from '../webhooks/support.js';
import { advance, confirmedMandate, eventsOf, startPlan, todayOf } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 180_000);
afterAll(async () => t?.close(), 60_000);

describe('a year of monthly debits with the sandbox clock', () => {
  it('collects twelve debits, each a donation told once by webhook, and completes the plan', async () => {
    const receiver = await startReceiver();
    const endpoint = await registerEndpoint(t, receiver.url, ['recurring_donation.debit_succeeded']);
    const mandateId = await confirmedMandate(t);
    const start = await todayOf(t);
    const plan = await startPlan(t, {
      mandateId,
      amount: '20.00',
      frequency: 'monthly',
      startDate: start,
      numberOfDebits: 12,
      partnerReference: 'membership-2027',
    });
    expect(plan.debits).toHaveLength(1);

    const advanced = await advance(t, 'P1Y');
    expect(advanced.statusCode).toBe(200);
    expect(advanced.json().data.items).toMatchObject({ debitsCreated: 11, paymentsSettled: 12 });

    const read = (await t.get(`/recurring-donations/${plan.recurringDonationId}`)).json().data.items;
    expect(read.status).toBe('completed');
    expect(read.nextDebitDate).toBeNull();
    expect(read.debits.map((d: { dueDate: string }) => d.dueDate)).toEqual(
      Array.from({ length: 12 }, (_, i) => addMonths(start, i)),
    );
    for (const debit of read.debits) {
      expect(debit).toMatchObject({ status: 'succeeded', attempts: 1, amount: '20.00', failure: null });
      expect(debit.donationReferenceId).toMatch(/^DON-/);
    }

    const succeeded = (await eventsOf(t)).filter((e) => e.type === 'recurring_donation.debit_succeeded');
    const debitIds = read.debits.map((d: { debitId: string }) => d.debitId).sort();
    expect(succeeded.map((e) => e.data.debit.debitId).sort()).toEqual(debitIds);

    // Delivered to the partner's endpoint, signed, once each.
    await webhookWorker(t).runPending();
    const delivered = receiver.ofType('recurring_donation.debit_succeeded');
    delivered.forEach((request) => verify(endpoint.secret, request));
    expect(delivered.map((r) => r.json().data.debit.debitId).sort()).toEqual(debitIds);
    expect(new Set(delivered.map((r) => r.headers['webhook-id'])).size).toBe(12);
    await receiver.close();
  });
});
