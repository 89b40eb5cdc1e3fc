import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('GET /accounts/{id} (section 4.9)', () => {
  it('returns the account with only the product of the requested channel', async () => {
    const response = await t.get('/accounts/10000001', { query: { channel: 'Storefront App' } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.method).toBe('/accounts/:id');
    expect(body.data.items).toEqual({
      name: 'Riverside Junior Football Club',
      memberNumber: '10000001',
      abn: '51824753556',
      products: [
        {
          name: 'Storefront App',
          description: 'Round up your order for the club',
          status: 'Activated',
          logo: 'https://example.org/assets/logo.png',
          coverImage: 'https://example.org/assets/cover.jpg',
          donationAmounts: [5, 10, 20, 50],
          story: 'Every dollar keeps junior sport affordable in our community.',
          campaigns: {},
          productEnrollmentId: 'PE-10000001-SF',
        },
      ],
    });
  });

  it('answers from the enrolment cache exactly as from the database, each request with its own correlation id', async () => {
    // The first request of a fresh key reads the database and fills the cache; the next ones are answered from it,
    // without a promise (docs/decisions/0082-request-path-budget.md).
    const query = { channel: 'Storefront App' };
    const answers = [];
    for (const correlationId of [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()])
      answers.push(await t.get('/accounts/10000001', { query, correlationId, as: t.storefront }));
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    const [first, ...cached] = answers.map((a) => a.json());
    for (const body of cached) expect(body.data).toEqual(first.data);
    expect(answers.map((a) => a.json().correlationId)).toEqual(answers.map((a) => a.headers['x-correlation-id']));
    expect(new Set(answers.map((a) => a.json().correlationId)).size).toBe(3);
  });

  it("the other channel's partner sees that channel's product", async () => {
    const response = await t.get('/accounts/10000001', {
      as: t.registration,
      query: { channel: 'Registration Integration' },
    });
    expect(response.json().data.items.products.map((p: { name: string }) => p.name)).toEqual([
      'Registration Integration',
    ]);
  });

  it('accepts a CRM id for the account', async () => {
    const response = await t.get('/accounts/0015g00000Demo1AAA', { query: { channel: 'Storefront App' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.items.memberNumber).toBe('10000001');
  });

  it('unknown id → 404 ACCOUNT:NOT_FOUND "Account with ID not found."', async () => {
    const response = await t.get('/accounts/99999999', { query: { channel: 'Storefront App' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      method: '/accounts/:id',
      error: { code: 'ACCOUNT:NOT_FOUND', message: 'Account with ID not found.' },
    });
  });

  it.each(['10000004', '10000005', '10000003'])(
    'known account %s without an activated product for the channel → 200 with products: []',
    async (id) => {
      const response = await t.get(`/accounts/${id}`, { query: { channel: 'Storefront App' } });
      expect(response.statusCode).toBe(200);
      const items = response.json().data.items;
      expect(items.memberNumber).toBe(id);
      expect(items.name).toEqual(expect.any(String));
      expect(items.products).toEqual([]);
      // The enrolment check itself still refuses it: that 400 belongs to /fundraisers and /donations.
      const check = await t.get('/fundraisers', { query: { channel: 'Storefront App', id } });
      expect(check.statusCode).toBe(400);
      expect(check.json().error.code).toBe('FUNDRAISER:VALIDATION');
    },
  );

  it('reads bigint columns and bigint[] as numbers on either engine', async () => {
    const product = await t.db
      .selectFrom('products')
      .select('donation_amounts_cents')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(product.donation_amounts_cents).toEqual([500, 1000, 2000, 5000]);
  });

  it('requires the channel', async () => {
    const response = await t.get('/accounts/10000001');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toBe('query.channel: is required');
  });
});
