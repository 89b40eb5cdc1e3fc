import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * OWASP API3 (broken object property level authorisation), at the HTTP boundary: a partner cannot set, by adding
 * properties to a body, what the service decides (owner, environment, live flag, reference, amount stored), and
 * responses carry only the properties their schema lists (docs/security.md).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => t?.close());

describe('object properties a partner may not set or see', () => {
  it('extra properties in a donation body cannot set its owner, environment, live flag, reference or amount', async () => {
    const body = {
      ...donationBody({ amount: '20.00' }),
      partnerId: t.registration.clientId,
      partner_id: '00000000-0000-0000-0000-000000000000',
      environment: 'production',
      live: true,
      is_live: true,
      donationReferenceId: 'D-CHOSEN-BY-CALLER',
      amount_cents: 1,
    };
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(200);
    const reference = response.json().data.items.donationReferenceId as string;
    expect(reference).not.toBe('D-CHOSEN-BY-CALLER');
    const row = await t.db
      .selectFrom('donations')
      .innerJoin('credentials', 'credentials.partner_id', 'donations.partner_id')
      .select(['donations.environment', 'donations.is_live', 'donations.amount_cents', 'credentials.client_id'])
      .where('donations.reference_id', '=', reference)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      environment: 'sit',
      is_live: false,
      amount_cents: 2000,
      client_id: t.storefront.clientId,
    });
  });

  it('a response carries only its schema’s properties: no stored hash, secret or internal id', async () => {
    const response = await t.get('/fundraisers', { query: { channel: 'Storefront App', id: '10000001' } });
    const text = response.body;
    for (const internal of ['secret_hash', 'partner_id', 'password', t.storefront.clientSecret])
      expect(text).not.toContain(internal);
    const endpoint = await t.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(endpoint.statusCode).toBe(201);
    const { id, secret } = endpoint.json().data.items;
    const read = await t.get(`/webhook-endpoints/${id}`);
    expect(read.body).not.toContain(secret);
    expect(read.body).not.toMatch(/sealed|secret_/);
  });
});
