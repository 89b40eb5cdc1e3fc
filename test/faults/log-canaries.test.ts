import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logging.js';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

// Values that must never appear in a log line, whatever the route or the error.
const CANARY = {
  firstName: 'Zephyrina',
  lastName: 'Quillfeather',
  email: 'zephyrina.canary@example.org',
  badEmail: 'quillfeather-canary@@nowhere',
  mobile: '0491 570 156',
  mobileE164: '+61491570156',
  street: '77 Canarywharf Lane',
  city: 'Canaryville',
  secret: 'CANARYSECRETVALUE0123456789',
};
const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await startTestApp({ deps: { logger: createLogger('debug', stream) } });
});
afterAll(async () => t?.close());

const donor = (email = CANARY.email) => ({
  email,
  firstName: CANARY.firstName,
  lastName: CANARY.lastName,
  mobile: CANARY.mobile,
  billingAddress: { street: CANARY.street, city: CANARY.city, state: 'NSW', postalCode: '2000', country: 'AU' },
});

describe('no donor data and no secret in any log line at debug', () => {
  it('through every route and error path', async () => {
    const donation = { ...donationBody(), donor: donor() };
    expect((await t.post('/donations', donation)).statusCode).toBe(200);
    expect((await t.post('/donations', donation)).statusCode).toBe(200); // replay
    const conflicting = { ...donation, transaction: { ...donation.transaction, amount: '99' } };
    expect((await t.post('/donations', conflicting)).statusCode).toBe(409);
    const invalid = { ...donationBody(), donor: { ...donor(CANARY.badEmail), mobile: `${CANARY.mobile}x` } };
    expect((await t.post('/donations', invalid)).statusCode).toBe(400);
    const foreignPostcode = {
      ...donationBody(),
      donor: { ...donor(), billingAddress: { street: CANARY.street, postalCode: 'CANARY1' } },
    };
    expect((await t.post('/donations', foreignPostcode)).statusCode).toBe(400);
    const notEnrolled = { ...donationBody({ fundraiserId: CANARY.email }), donor: donor() };
    expect((await t.post('/donations', notEnrolled)).statusCode).toBe(400);
    const malformed = await t.call('POST', '/donations', {
      body: `{"donor":{"email":"${CANARY.email}"`,
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    const text = await t.call('POST', '/donations', { body: CANARY.email, headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);

    const mandate = {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: CANARY.firstName, lastName: CANARY.lastName, email: CANARY.email },
      paymentMethod: 'Direct Debit',
    };
    const created = await t.post('/mandates', mandate);
    expect(created.statusCode).toBe(200);
    const mandateId = created.json().data.items.mandateId as string;
    expect((await t.get('/mandates', { query: { id: mandateId } })).statusCode).toBe(200);
    expect((await t.get('/mandates', { query: { id: CANARY.email } })).statusCode).toBe(404);
    expect((await t.post('/mandates', { ...mandate, fundraiser: { email: CANARY.badEmail } })).statusCode).toBe(400);
    expect(
      (await t.post(`/sandbox/mandates/${mandateId}/confirm`, { bsb: '000-000', accountNumber: '000123456' }))
        .statusCode,
    ).toBe(200);

    expect((await t.get('/fundraisers', { query: { channel: 'Storefront App', id: CANARY.email } })).statusCode).toBe(
      400,
    );
    expect(
      (await t.get(`/accounts/${encodeURIComponent(CANARY.email)}`, { query: { channel: 'Storefront App' } }))
        .statusCode,
    ).toBe(404);
    expect((await t.get(`/remittances/${encodeURIComponent(CANARY.email)}`)).statusCode).toBeGreaterThanOrEqual(400);
    const remittance = {
      source: { channel: 'Storefront App', fundraiserId: CANARY.email },
      remittances: [{ bankReferenceId: 'B-1', amount: 1, donationIds: [CANARY.email] }],
    };
    expect((await t.post('/remittances', remittance)).statusCode).toBeGreaterThanOrEqual(400);
    expect((await t.get(`/${encodeURIComponent(CANARY.email)}`)).statusCode).toBe(404);

    // Credentials: a wrong secret, a Basic header carrying a secret, a correlation id that is not a UUID.
    const wrong = { clientId: t.storefront.clientId, clientSecret: CANARY.secret };
    expect((await t.get('/ping', { as: wrong })).statusCode).toBe(401);
    const basic = `Basic ${Buffer.from(`${t.storefront.clientId}:${CANARY.secret}`).toString('base64')}`;
    expect((await t.get('/ping', { headers: { authorization: basic } })).statusCode).toBe(401);
    expect((await t.get('/ping', { correlationId: CANARY.email })).statusCode).toBe(400);
    expect((await t.get('/ping')).statusCode).toBe(200);

    // A database failure (5xx path): the statement's parameters ride on the error object.
    await t.database.close();
    const outage = await t.post('/donations', { ...donationBody(), donor: donor() });
    expect(outage.statusCode).toBeGreaterThanOrEqual(500);

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    const basicSecret = Buffer.from(`${t.storefront.clientId}:${CANARY.secret}`).toString('base64');
    const leaks = [...Object.values(CANARY), t.storefront.clientSecret, basicSecret, 'Zephyrina'.toLowerCase()].filter(
      (value) => log.toLowerCase().includes(value.toLowerCase()),
    );
    if (process.env.SHOW_LOG) console.log(log);
    expect(leaks).toEqual([]);
  });
});
