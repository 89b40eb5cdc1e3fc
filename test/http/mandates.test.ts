import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const mandateBody = (fundraiserId = '10000001') => ({
  source: { channel: 'Storefront App', fundraiserId },
  fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam.coach@example.com' },
  paymentMethod: 'Direct Debit',
});

async function createMandate() {
  const response = await t.post('/mandates', mandateBody());
  expect(response.statusCode).toBe(200);
  return response.json().data.items as { fundraiserId: string; clientSecret: string; mandateId: string };
}

const confirm = (id: string, accountNumber: string, as?: TestApp['storefront']) =>
  t.post(`/sandbox/mandates/${id}/confirm`, { bsb: '000-000', accountNumber }, { as });

describe('POST /mandates (section 4.7)', () => {
  it('returns fundraiserId, a Stripe-shaped clientSecret and the mandateId', async () => {
    const items = await createMandate();
    expect(items.fundraiserId).toBe('10000001');
    expect(items.mandateId).toMatch(/^seti_[A-Za-z0-9]{24}$/);
    expect(items.clientSecret).toMatch(new RegExp(`^${items.mandateId}_secret_[A-Za-z0-9]{25}$`));
  });

  it('only Direct Debit is supported', async () => {
    const response = await t.post('/mandates', { ...mandateBody(), paymentMethod: 'Card' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toBe('paymentMethod: must be one of "Direct Debit"');
  });

  it('names every missing field', async () => {
    const response = await t.post('/mandates', { source: { channel: 'Storefront App' }, fundraiser: { email: 'x' } });
    const cause = response.json().error.cause as string;
    for (const field of [
      'source.fundraiserId',
      'fundraiser.firstName',
      'fundraiser.lastName',
      'fundraiser.email',
      'paymentMethod',
    ])
      expect(cause).toContain(field);
  });

  it('needs an active enrolment', async () => {
    const response = await t.post('/mandates', mandateBody('10000004'));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Fundraiser Validation Unsuccessful');
  });

  it('Idempotency-Key replays the same mandate', async () => {
    const key = randomUUID();
    const first = await t.post('/mandates', mandateBody(), { headers: { 'idempotency-key': key } });
    const again = await t.post('/mandates', mandateBody(), { headers: { 'idempotency-key': key } });
    expect(again.json().data.items).toEqual(first.json().data.items);
    const rows = await t.db
      .selectFrom('mandates')
      .select('id')
      .where('id', '=', first.json().data.items.mandateId)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('GET /mandates (section 4.6)', () => {
  it('starts at requires_payment_method with mandate {}', async () => {
    const { mandateId } = await createMandate();
    const response = await t.get('/mandates', { query: { id: mandateId } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      method: '/mandates',
      data: { items: { mandateId, status: 'requires_payment_method', mandate: {} } },
    });
  });

  it('is succeeded with acceptedAt, au_becs_debit and url once confirmed with the succeeding test account', async () => {
    const { mandateId } = await createMandate();
    const confirmed = await confirm(mandateId, '000123456');
    expect(confirmed.statusCode).toBe(200);
    const response = await t.get('/mandates', { query: { id: mandateId } });
    const { items } = response.json().data;
    expect(items.status).toBe('succeeded');
    expect(items.mandate.paymentMethod).toBe('au_becs_debit');
    expect(items.mandate.acceptedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(items.mandate.url).toContain(`/sandbox/mandate-confirmations/${mandateId}`);
    const page = await t.app.inject({ method: 'GET', url: new URL(items.mandate.url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(mandateId);
  });

  it('stays requires_payment_method with {} when the failing test account is used', async () => {
    const { mandateId } = await createMandate();
    const confirmed = await confirm(mandateId, '111111113');
    expect(confirmed.json().data.items).toMatchObject({
      status: 'requires_payment_method',
      mandate: {},
      lastSetupError: 'account_closed',
    });
    const response = await t.get('/mandates', { query: { id: mandateId } });
    expect(response.json().data.items).toEqual({ mandateId, status: 'requires_payment_method', mandate: {} });
  });

  it('moves through processing to succeeded with the delayed test account', async () => {
    const { mandateId } = await createMandate();
    expect((await confirm(mandateId, '900123456')).json().data.items.status).toBe('processing');
    expect((await t.get('/mandates', { query: { id: mandateId } })).json().data.items.status).toBe('succeeded');
  });

  it("another partner's mandate answers exactly like an unknown id: 404", async () => {
    const { mandateId } = await createMandate();
    const foreign = await t.get('/mandates', { query: { id: mandateId }, as: t.registration });
    const unknown = await t.get('/mandates', { query: { id: 'seti_doesnotexist' }, as: t.registration });
    expect(foreign.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('FUNDRAISER:NOT_FOUND');
    expect(foreign.json().error.cause?.replace(mandateId, 'X')).toBe(
      unknown.json().error.cause?.replace('seti_doesnotexist', 'X'),
    );
    expect((await confirm(mandateId, '000123456', t.registration)).statusCode).toBe(404);
  });

  it('requires the id', async () => {
    const response = await t.get('/mandates');
    expect(response.json().error.cause).toBe('query.id: is required');
  });

  it('the sandbox refuses unknown test accounts with the list of usable ones', async () => {
    const { mandateId } = await createMandate();
    const response = await confirm(mandateId, '123456789');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toContain('000123456');
  });
});
