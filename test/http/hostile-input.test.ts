import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 180_000);
afterAll(async () => t?.close(), 60_000);

const cause = (response: { json(): { error: { cause: string } } }) => response.json().error.cause;

describe('text the database cannot store is a 400 naming the field', () => {
  it('NUL and unpaired surrogates anywhere in a donation, sourceMetadata at any depth included', async () => {
    const body = donationBody();
    body.donor.firstName = 'Jo\u0000';
    (body.sourceMetadata as Record<string, unknown>).deep = { list: [{ note: 'x\ud800' }] };
    (body.sourceMetadata as Record<string, unknown>)['bad\u0000key'] = 1;
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('FUNDRAISER:VALIDATION');
    expect(cause(response)).toContain('donor.firstName: must not contain NUL characters or unpaired surrogates');
    expect(cause(response)).toContain('sourceMetadata.deep.list[0].note: must not contain NUL');
    expect(cause(response)).toContain('property name must not contain NUL');
  });

  it('remittance donationIds and query parameters', async () => {
    const remittance = await t.post('/remittances', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      remittances: [{ bankReferenceId: 'B1', amount: 1, donationIds: ['DON-\udc00'] }],
    });
    expect(remittance.statusCode).toBe(400);
    expect(cause(remittance)).toContain('remittances[0].donationIds[0]: must not contain');
    const query = await t.get('/mandates', { query: { id: 'seti_\u0000' } });
    expect(query.statusCode).toBe(400);
    expect(cause(query)).toContain('query.id: must not contain');
  });

  it('the public sandbox page answers a NUL id in the envelope, without credentials', async () => {
    for (const id of ['%00', '%ED%A0%80', 'seti_unknown']) {
      const response = await t.app.inject({ method: 'GET', url: `/v1/sandbox/mandate-confirmations/${id}` });
      expect(response.statusCode, id).toBeLessThan(500);
      expect(response.statusCode, id).toBeGreaterThanOrEqual(400);
      expect(response.json().error.code).toMatch(/^FUNDRAISER:/);
    }
  });

  it('dates must be real instants', async () => {
    for (const date of [
      '2024-12-31T23:59:60Z',
      '2025-02-29T10:00:00Z',
      '2024-04-31T00:00:00+10:00',
      '2024-01-01T24:00:00Z',
    ]) {
      const body = donationBody();
      body.transaction.date = date;
      const response = await t.post('/donations', body);
      expect(response.statusCode, date).toBe(400);
      expect(cause(response)).toContain('transaction.date: must be an ISO 8601 date-time naming a real instant');
    }
    const leap = donationBody();
    leap.transaction.date = '2024-02-29T23:59:59.999+10:00';
    expect((await t.post('/donations', leap)).statusCode).toBe(200);
  });
});

describe('one validation pass names every failing field before any business rule', () => {
  it('a bad email and a bad postcode are both named', async () => {
    const body = donationBody();
    body.donor.email = 'not-an-email';
    body.donor.billingAddress.postalCode = '12';
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(400);
    expect(cause(response)).toContain('donor.email: must be a valid email address');
    expect(cause(response)).toContain('donor.billingAddress.postalCode: must be 4 digits for an Australian address');
  });

  it('a bad postcode for a fundraiser that is not activated is a field error, not the enrolment error', async () => {
    const body = donationBody({ fundraiserId: '10000004' });
    body.donor.billingAddress.postalCode = 'ABC';
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Request Validation Unsuccessful');
    expect(cause(response)).toContain('donor.billingAddress.postalCode');
  });

  it('an unknown channel is named together with the other bad fields', async () => {
    const body = donationBody({ channel: 'No Such Channel' });
    body.donor.email = 'nope';
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(400);
    expect(cause(response)).toContain('source.channel: must be one of');
    expect(cause(response)).toContain('donor.email');
  });
});

describe('what Fastify answers before our routes is in the envelope', () => {
  it('malformed JSON, 404, 405 with Allow, 415', async () => {
    const malformed = await t.call('POST', '/donations', { headers: { 'content-type': 'application/json' } });
    expect(malformed.statusCode).toBe(400);
    const raw = await t.app.inject({
      method: 'POST',
      url: '/v1/donations',
      headers: { ...credentials(), 'content-type': 'application/json' },
      payload: '{"source":',
    });
    expect(raw.statusCode).toBe(400);
    expect(cause(raw)).toBe('(body): malformed JSON');
    const wrongMethod = await t.call('DELETE', '/donations');
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('POST');
    expect(wrongMethod.json().error.code).toBe('FUNDRAISER:METHOD_NOT_ALLOWED');
    const unknown = await t.get('/nowhere');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('FUNDRAISER:NOT_FOUND');
    const badUrl = await t.app.inject({ method: 'GET', url: '/v1/remittances/%E0%A4%A', headers: credentials() });
    expect(badUrl.statusCode).toBeLessThan(500);
    expect(badUrl.json().error.code).toMatch(/^FUNDRAISER:/);
  });

  it('a URL over MAX_URL_LENGTH is 414 in the envelope', async () => {
    const response = await t.get(`/fundraisers?channel=Storefront%20App&id=${'1'.repeat(t.config.MAX_URL_LENGTH)}`);
    expect(response.statusCode).toBe(414);
    expect(response.json().error.code).toBe('FUNDRAISER:URI_TOO_LONG');
  });
});

function credentials() {
  return {
    'x-correlation-id': crypto.randomUUID(),
    client_id: t.storefront.clientId,
    client_secret: t.storefront.clientSecret,
  };
}
