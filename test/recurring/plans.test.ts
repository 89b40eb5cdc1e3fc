import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/calendar-date.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { confirmedMandate, eventsOf, startPlan, todayOf } from './support.js';

let t: TestApp;
let mandateId: string;
let today: string;
beforeAll(async () => {
  t = await startTestApp();
  mandateId = await confirmedMandate(t);
  today = await todayOf(t);
}, 180_000);
afterAll(async () => t?.close(), 60_000);

const body = (overrides: Record<string, unknown> = {}) => ({
  mandateId,
  amount: '15.50',
  frequency: 'weekly',
  startDate: addDays(today, 7),
  ...overrides,
});

describe('POST /recurring-donations', () => {
  it('starts a plan: 201, Location, the plan with its next date and no debit before its start', async () => {
    const response = await t.post('/recurring-donations', body({ numberOfDebits: 3 }));
    expect(response.statusCode).toBe(201);
    const plan = response.json().data.items;
    expect(response.headers.location).toBe(`/v1/recurring-donations/${plan.recurringDonationId}`);
    expect(response.json().method).toBe('/recurring-donations');
    expect(plan).toMatchObject({
      mandateId,
      fundraiserId: '10000001',
      amount: '15.50',
      frequency: 'weekly',
      numberOfDebits: 3,
      status: 'active',
      nextDebitDate: body().startDate,
      debits: [],
    });
    expect(plan.recurringDonationId).toMatch(/^RDN-[0-9A-Z]{16}$/);
  });

  it('schedules the first debit at once when the plan starts today', async () => {
    const plan = await startPlan(t, body({ startDate: today }));
    expect(plan.debits).toEqual([
      expect.objectContaining({ sequence: 1, status: 'scheduled', dueDate: today, attempts: 0 }),
    ]);
  });

  it('names every invalid field', async () => {
    const response = await t.post('/recurring-donations', {
      mandateId,
      amount: '10.001',
      frequency: 'daily',
      startDate: '2027-02-30',
      numberOfDebits: 0,
    });
    expect(response.statusCode).toBe(400);
    const cause = response.json().error.cause as string;
    for (const field of ['amount:', 'frequency:', 'startDate:', 'numberOfDebits:']) expect(cause).toContain(field);
  });

  it('refuses a start in the past and an end before the start, naming the field', async () => {
    const past = await t.post('/recurring-donations', body({ startDate: addDays(today, -1) }));
    expect(past.statusCode).toBe(400);
    expect(past.json().error.cause).toContain('startDate: must be today');
    const backwards = await t.post('/recurring-donations', body({ endDate: today }));
    expect(backwards.json().error.cause).toBe('endDate: must not be before startDate');
  });

  it('answers another partner’s mandate exactly like an unknown one', async () => {
    const foreign = await t.post('/recurring-donations', body(), { as: t.registration });
    const unknown = await t.post('/recurring-donations', body({ mandateId: 'seti_doesnotexist000000000' }), {
      as: t.registration,
    });
    expect(foreign.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe(unknown.json().error.code);
    expect(foreign.json().error.message).toBe(unknown.json().error.message);
  });

  it('refuses a mandate that has not succeeded with a 409 naming its status', async () => {
    const created = await t.post('/mandates', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: 'Pat', lastName: 'Payer', email: 'pat.payer@example.com' },
      paymentMethod: 'Direct Debit',
    });
    const pending = created.json().data.items.mandateId as string;
    const response = await t.post('/recurring-donations', body({ mandateId: pending }));
    expect(response.statusCode).toBe(409);
    expect(response.json().error.cause).toContain('is requires_payment_method');
  });

  it('never creates a second plan on a retry: partnerReference and Idempotency-Key', async () => {
    const first = await t.post('/recurring-donations', body({ partnerReference: 'ref-1' }));
    const again = await t.post('/recurring-donations', body({ partnerReference: 'ref-1' }));
    expect(again.statusCode).toBe(200);
    expect(again.json().data.items.recurringDonationId).toBe(first.json().data.items.recurringDonationId);
    const changed = await t.post('/recurring-donations', body({ partnerReference: 'ref-1', amount: '99' }));
    expect(changed.statusCode).toBe(409);

    const key = { headers: { 'idempotency-key': 'plan-key-1' } };
    const keyed = await t.post('/recurring-donations', body(), key);
    const replayed = await t.post('/recurring-donations', body(), key);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json().data.items.recurringDonationId).toBe(keyed.json().data.items.recurringDonationId);
    expect((await t.post('/recurring-donations', body({ amount: '1' }), key)).statusCode).toBe(409);
  });
});

describe('reading, listing and canceling plans', () => {
  it('lists a mandate’s plans a page at a time, and another partner sees none of them', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.get('/recurring-donations', {
        query: { mandateId, limit: '2', ...(cursor ? { cursor } : {}) },
      });
      expect(page.statusCode).toBe(200);
      const items = page.json().data.items;
      seen.push(...items.recurringDonations.map((p: { recurringDonationId: string }) => p.recurringDonationId));
      cursor = items.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(new Set(seen).size).toBe(seen.length);
    expect((await t.get('/recurring-donations', { query: { mandateId }, as: t.registration })).statusCode).toBe(404);
    expect((await t.get(`/recurring-donations/${seen[0]}`, { as: t.registration })).statusCode).toBe(404);
  });

  it('cancels a plan: no next date, its scheduled debit closed, the partner told once', async () => {
    const plan = await startPlan(t, body({ startDate: today }));
    const canceled = await t.post(`/recurring-donations/${plan.recurringDonationId}/cancel`, {});
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().data.items).toMatchObject({
      status: 'canceled',
      nextDebitDate: null,
      canceledReason: 'Canceled by the partner',
      debits: [expect.objectContaining({ status: 'failed', failure: expect.objectContaining({ code: 'canceled' }) })],
    });
    expect((await t.post(`/recurring-donations/${plan.recurringDonationId}/cancel`, {})).statusCode).toBe(200);
    const told = (await eventsOf(t)).filter(
      (e) =>
        e.type === 'recurring_donation.canceled' &&
        e.data.recurringDonation.recurringDonationId === plan.recurringDonationId,
    );
    expect(told).toHaveLength(1);
    // The queued collection finds nothing to do.
    await t.recurring.runPending();
    const after = (await t.get(`/recurring-donations/${plan.recurringDonationId}`)).json().data.items;
    expect(after.debits[0].attempts).toBe(0);
  });
});
