import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { MAX_REMITTANCE_ENTRIES: '50' } });
});
afterAll(async () => t.close());

async function donate(amount: string, fundraiserId = '10000001') {
  const response = await t.post('/donations', donationBody({ amount, fundraiserId }));
  return response.json().data.items.donationReferenceId as string;
}

const batch = (remittances: unknown[], fundraiserId = '10000001') => ({
  source: { channel: 'Storefront App', fundraiserId },
  remittances,
});

describe('POST /remittances (section 4.8)', () => {
  it('stores the batch durably and answers 202 Request Accepted with the batch id', async () => {
    const a = await donate('10.00');
    const b = await donate('15.50');
    const response = await t.post(
      '/remittances',
      batch([
        { bankReferenceId: `BANK-${randomUUID()}`, amount: 25.5, donationIds: [a, b] },
        { bankReferenceId: `BANK-${randomUUID()}`, amount: 1, donationIds: ['DON-UNKNOWN'] },
      ]),
    );
    expect(response.statusCode).toBe(202);
    const body = response.json();
    expect(body.method).toBe('/remittance');
    expect(body.data.items.status).toBe('Request Accepted');
    const stored = await t.db
      .selectFrom('remittance_batches')
      .selectAll()
      .where('id', '=', body.data.items.batchId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      entry_count: 2,
      total_cents: 2650,
      channel: 'Storefront App',
      fundraiser_id: '10000001',
    });
    const entries = await t.db
      .selectFrom('remittance_entries')
      .selectAll()
      .where('batch_id', '=', stored.id)
      .orderBy('position')
      .execute();
    expect(entries.map((e) => [e.amount_cents, e.donation_ids])).toEqual([
      [2550, [a, b]],
      [100, ['DON-UNKNOWN']],
    ]);
  });

  it('406 when the batch fundraiser has no active enrolment', async () => {
    const response = await t.post(
      '/remittances',
      batch([{ bankReferenceId: 'B-1', amount: 1, donationIds: ['DON-X'] }], '10000004'),
    );
    expect(response.statusCode).toBe(406);
    expect(response.json()).toMatchObject({
      method: '/remittance',
      error: { code: 'FUNDRAISER:REMITTANCE POST', message: 'Fundraiser remittance processing request not accepted' },
    });
  });

  it('406 when the fundraiser of a referenced donation is no longer enrolled', async () => {
    const donation = await donate('5.00', '10000002');
    await t.db
      .updateTable('products')
      .set({ status: 'Deactivated' })
      .where(
        'account_id',
        '=',
        (
          await t.db
            .selectFrom('accounts')
            .select('id')
            .where('member_number', '=', '10000002')
            .executeTakeFirstOrThrow()
        ).id,
      )
      .execute();
    const response = await t.post(
      '/remittances',
      batch([{ bankReferenceId: 'B-2', amount: 5, donationIds: [donation] }]),
    );
    expect(response.statusCode).toBe(406);
    expect(response.json().error.cause).toContain('10000002');
  });

  it.each([
    [
      { bankReferenceId: 'B', amount: 10.555, donationIds: ['D'] },
      'remittances[0].amount: must be a positive number with at most 2 decimals',
    ],
    [{ bankReferenceId: 'B', amount: '10.00', donationIds: ['D'] }, 'remittances[0].amount: must be a number'],
    [
      { bankReferenceId: 'B', amount: 0, donationIds: ['D'] },
      'remittances[0].amount: must be a positive number with at most 2 decimals',
    ],
    [
      { bankReferenceId: 'B', amount: 1, donationIds: [] },
      'remittances[0].donationIds: must NOT have fewer than 1 items',
    ],
    [{ amount: 1, donationIds: ['D'] }, 'remittances[0].bankReferenceId: is required'],
  ])('validates each entry: %j', async (entry, cause) => {
    const response = await t.post('/remittances', batch([entry]));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toBe(cause);
  });

  it('refuses an empty batch and a batch over the documented maximum', async () => {
    expect((await t.post('/remittances', batch([]))).json().error.cause).toBe(
      'remittances: must NOT have fewer than 1 items',
    );
    const tooMany = Array.from({ length: 51 }, (_, i) => ({ bankReferenceId: `B${i}`, amount: 1, donationIds: ['D'] }));
    expect((await t.post('/remittances', batch(tooMany))).json().error.cause).toBe(
      'remittances: must NOT have more than 50 items',
    );
  });

  it('Idempotency-Key replays the same batch id instead of storing the batch twice', async () => {
    const key = randomUUID();
    const body = batch([{ bankReferenceId: `BANK-${randomUUID()}`, amount: 3, donationIds: ['DON-A'] }]);
    const first = await t.post('/remittances', body, { headers: { 'idempotency-key': key } });
    const again = await t.post('/remittances', body, { headers: { 'idempotency-key': key } });
    expect(again.statusCode).toBe(202);
    expect(again.json().data.items.batchId).toBe(first.json().data.items.batchId);
  });
});
