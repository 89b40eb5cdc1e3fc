import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { BODY_LIMIT_BYTES: '65536' } });
});
afterAll(async () => t.close());

const storedDonation = (referenceId: string) =>
  t.db.selectFrom('donations').selectAll().where('reference_id', '=', referenceId).executeTakeFirstOrThrow();
const countByTransaction = async (transactionId: string) =>
  Number(
    (
      await t.db
        .selectFrom('donations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('transaction_id', '=', transactionId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /donations (section 4.5)', () => {
  it('records the donation and returns its donationReferenceId', async () => {
    const body = donationBody();
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(200);
    const envelope = response.json();
    expect(envelope.method).toBe('/donations');
    expect(envelope.data.items.donationReferenceId).toMatch(/^DON-[0-9A-Z]{16}$/);
  });

  it('stores it normalised: cents, state code, alpha-2 country, E.164 mobile, metadata verbatim, not live', async () => {
    const body = donationBody({ amount: '20.5' });
    body.donor.billingAddress.state = 'new south wales';
    body.donor.billingAddress.country = 'Australia';
    body.donor.mobile = '0412 345 678';
    (body.sourceMetadata as Record<string, unknown>) = {
      orderNumber: 'A-1',
      nested: { list: [1, 'two', null] },
      orderTotal: 120.5,
    };
    const correlationId = randomUUID();
    const response = await t.post('/donations', body, { correlationId });
    const row = await storedDonation(response.json().data.items.donationReferenceId);
    expect(row).toMatchObject({
      amount_cents: 2050,
      address_state: 'NSW',
      address_country: 'AU',
      address_postal_code: '2000',
      donor_mobile: '+61412345678',
      donor_email: 'jo.citizen@example.com',
      channel: 'Storefront App',
      fundraiser_id: '10000001',
      environment: 'sit',
      is_live: false,
      correlation_id: correlationId,
      transaction_id: body.transaction.id,
      transaction_date_raw: '2026-11-21T10:00:00+10:00',
    });
    expect(new Date(row.transaction_at!).toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(row.source_metadata).toEqual({ orderNumber: 'A-1', nested: { list: [1, 'two', null] }, orderTotal: 120.5 });
  });

  it('treats "" as absent for mobile and optional address fields, and needs only the postcode', async () => {
    const body = donationBody();
    body.donor.mobile = '';
    body.donor.billingAddress = {
      postalCode: '3000',
      street: '',
      city: '',
      state: '',
      country: '',
    };
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(200);
    const row = await storedDonation(response.json().data.items.donationReferenceId);
    expect(row).toMatchObject({
      donor_mobile: null,
      address_street: null,
      address_state: null,
      address_country: null,
      address_postal_code: '3000',
    });
  });

  it('accepts a donation without transaction fields (all optional in section 2.7)', async () => {
    const body = { ...donationBody(), transaction: {} };
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(200);
    const row = await storedDonation(response.json().data.items.donationReferenceId);
    expect(row.amount_cents).toBeNull();
  });

  it('keeps whether the donor agreed to be named to the club (an extension; absent means not)', async () => {
    const shared = donationBody();
    (shared.donor as Record<string, unknown>).shareNameWithFundraiser = true;
    const sharedRef = (await t.post('/donations', shared)).json().data.items.donationReferenceId;
    const silentRef = (await t.post('/donations', donationBody())).json().data.items.donationReferenceId;
    expect((await storedDonation(sharedRef)).donor_name_shared).toBe(true);
    expect((await storedDonation(silentRef)).donor_name_shared).toBe(false);
    const read = await t.get(`/donations/${sharedRef}`);
    expect(read.json().data.items.donor.shareNameWithFundraiser).toBe(true);
    const refused = donationBody();
    (refused.donor as Record<string, unknown>).shareNameWithFundraiser = 'yes';
    const response = await t.post('/donations', refused);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toContain('donor.shareNameWithFundraiser');
  });

  it('names every failing field by its JSON path', async () => {
    const response = await t.post('/donations', {
      source: { channel: 'Storefront App' },
      donor: {
        email: 'not-an-email',
        firstName: '',
        mobile: '12',
        billingAddress: { state: 'Atlantis', country: 'Narnia' },
      },
      transaction: { amount: '20.555', date: 'yesterday' },
    });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('FUNDRAISER:VALIDATION');
    for (const field of [
      'source.fundraiserId: is required',
      'donor.email: must be a valid email address',
      'donor.firstName: must not be empty',
      'donor.lastName: is required',
      'donor.mobile:',
      'donor.billingAddress.postalCode: is required',
      'donor.billingAddress.state:',
      'donor.billingAddress.country:',
      'transaction.amount:',
      'transaction.date:',
    ]) {
      expect(error.cause).toContain(field);
    }
  });

  it.each(['0', '0.00', '-5', '1,000', '20.555', 'AUD 20'])('refuses the amount %j', async (amount) => {
    const response = await t.post('/donations', donationBody({ amount }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toMatch(/^transaction\.amount: must be a positive decimal string/);
  });

  it('requires a four-digit postcode for an Australian address', async () => {
    const body = donationBody();
    body.donor.billingAddress.postalCode = '200';
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toBe(
      'donor.billingAddress.postalCode: must be 4 digits for an Australian address',
    );
  });

  it('bounds string lengths', async () => {
    const body = donationBody();
    body.donor.firstName = 'x'.repeat(101);
    const response = await t.post('/donations', body);
    expect(response.json().error.cause).toBe('donor.firstName: must be at most 100 characters');
  });

  it.each([
    ['10000004', /not activated/],
    ['10000005', /not enrolled/],
    ['unknown', /not found/],
  ])(
    'fundraiser %s not enrolled with the channel → 400 Fundraiser Validation Unsuccessful',
    async (fundraiserId, cause) => {
      const response = await t.post('/donations', donationBody({ fundraiserId }));
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'FUNDRAISER:VALIDATION',
        message: 'Fundraiser Validation Unsuccessful',
      });
      expect(response.json().error.cause).toMatch(cause);
    },
  );

  it('refuses a body channel the partner was not issued (401)', async () => {
    const response = await t.post('/donations', donationBody({ channel: 'Registration Integration' }));
    expect(response.statusCode).toBe(401);
  });
});

describe('idempotency', () => {
  it('a retry with the same transaction.id returns the first donationReferenceId and stores one row', async () => {
    const body = donationBody();
    const first = await t.post('/donations', body);
    const retry = await t.post('/donations', body);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().data.items.donationReferenceId).toBe(first.json().data.items.donationReferenceId);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await countByTransaction(body.transaction.id)).toBe(1);
  });

  it('key order does not make a retry look different', async () => {
    const body = donationBody();
    const reordered = {
      transaction: body.transaction,
      sourceMetadata: body.sourceMetadata,
      donor: body.donor,
      source: body.source,
    };
    const first = await t.post('/donations', body);
    const retry = await t.post('/donations', reordered);
    expect(retry.json().data.items.donationReferenceId).toBe(first.json().data.items.donationReferenceId);
  });

  it('the same transaction.id with a different body → 409 FUNDRAISER:CONFLICT', async () => {
    const body = donationBody({ amount: '10.00' });
    await t.post('/donations', body);
    const changed = await t.post('/donations', { ...body, transaction: { ...body.transaction, amount: '11.00' } });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error.code).toBe('FUNDRAISER:CONFLICT');
    expect(await countByTransaction(body.transaction.id)).toBe(1);
  });

  it('the same transaction.id from another partner is another donation', async () => {
    const body = donationBody({ channel: 'Registration Integration' });
    const mine = await t.post('/donations', body, { as: t.registration });
    const other = await t.post('/donations', donationBody({ transactionId: body.transaction.id }));
    expect(other.json().data.items.donationReferenceId).not.toBe(mine.json().data.items.donationReferenceId);
  });

  it('concurrent retries create exactly one donation', async () => {
    const body = donationBody();
    const responses = await Promise.all(Array.from({ length: 8 }, () => t.post('/donations', body)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(responses.map((r) => r.json().data.items.donationReferenceId)).size).toBe(1);
    expect(await countByTransaction(body.transaction.id)).toBe(1);
  });

  it('Idempotency-Key replays the first response even without a transaction.id', async () => {
    const body = { ...donationBody(), transaction: { amount: '5.00' } };
    const key = randomUUID();
    const first = await t.post('/donations', body, { headers: { 'idempotency-key': key } });
    const again = await t.post('/donations', body, { headers: { 'idempotency-key': key } });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.items).toEqual(first.json().data.items);
    expect(again.json().correlationId).not.toBe(first.json().correlationId);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('concurrent requests with one Idempotency-Key create one donation', async () => {
    const body = { ...donationBody(), transaction: { amount: '7.00' } };
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => t.post('/donations', body, { headers: { 'idempotency-key': key } })),
    );
    expect(new Set(responses.map((r) => r.json().data.items.donationReferenceId)).size).toBe(1);
  });

  it('the same Idempotency-Key with a different body → 409', async () => {
    const key = randomUUID();
    await t.post('/donations', donationBody(), { headers: { 'idempotency-key': key } });
    const response = await t.post('/donations', donationBody(), { headers: { 'idempotency-key': key } });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.cause).toContain('Idempotency-Key');
  });
});

describe('payload limits and media types', () => {
  it('413 FUNDRAISER:PAYLOAD_TOO_LARGE beyond BODY_LIMIT_BYTES', async () => {
    const body = donationBody();
    (body.sourceMetadata as Record<string, unknown>) = { blob: 'x'.repeat(70_000) };
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('FUNDRAISER:PAYLOAD_TOO_LARGE');
  });

  it('415 FUNDRAISER:UNSUPPORTED_MEDIA_TYPE for anything but JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const response = await t.post('/donations', 'a=b', { headers: { 'content-type': type } });
      expect(response.statusCode).toBe(415);
      expect(response.json().error.code).toBe('FUNDRAISER:UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('malformed JSON → 400 naming the body', async () => {
    const response = await t.post('/donations', '{"source": ', { headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'FUNDRAISER:VALIDATION', cause: '(body): malformed JSON' });
  });

  it('a JSON value that is not an object → 400', async () => {
    const response = await t.post('/donations', '[1,2]', { headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('FUNDRAISER:VALIDATION');
  });
});
