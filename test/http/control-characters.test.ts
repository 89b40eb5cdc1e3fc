import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 180_000);
afterAll(async () => t?.close(), 60_000);

const CONTROLS = 'must not contain control characters (line breaks, tabs, other C0 or C1 controls, or DEL)';

const remittance = (bankReferenceId: string, donationIds = ['DON-UNKNOWN']) => ({
  source: { channel: 'Storefront App', fundraiserId: '10000001' },
  remittances: [{ bankReferenceId, amount: 1, donationIds }],
});

function donationWith(change: (body: ReturnType<typeof donationBody>) => void) {
  const body = donationBody();
  change(body);
  return body;
}

type Response = Awaited<ReturnType<TestApp['get']>>;

function expectRefused(response: Response, field: string) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json().error.code).toBe('FUNDRAISER:VALIDATION');
  expect(response.json().error.cause).toContain(`${field}: ${CONTROLS}`);
}

describe('identifiers and free text with control characters are refused naming the field', () => {
  it('a carriage return in donor.firstName', async () => {
    const response = await t.post(
      '/donations',
      donationWith((body) => (body.donor.firstName = 'Jo\rCR')),
    );
    expectRefused(response, 'donor.firstName');
  });

  it('"\\rCR" as a remittance bankReferenceId, and a line feed in a donation id', async () => {
    expectRefused(await t.post('/remittances', remittance('\rCR')), 'remittances[0].bankReferenceId');
    expectRefused(
      await t.post('/remittances', remittance('B-1', ['DON-A', 'DON-\nB'])),
      'remittances[0].donationIds[1]',
    );
  });

  it('a line feed in the Idempotency-Key header', async () => {
    const response = await t.post('/donations', donationBody(), { headers: { 'idempotency-key': 'key\nsplit' } });
    expectRefused(response, 'headers.idempotency-key');
  });

  it('tab, DEL and C1 controls (NEL among them) too, in bodies, query parameters and webhook URLs', async () => {
    const cases: [string, () => Promise<Response>][] = [
      [
        'donor.billingAddress.city',
        () =>
          t.post(
            '/donations',
            donationWith((b) => (b.donor.billingAddress.city = 'Syd\tney')),
          ),
      ],
      [
        'transaction.id',
        () =>
          t.post(
            '/donations',
            donationWith((b) => (b.transaction.id = `T-${randomUUID()}\u007f`)),
          ),
      ],
      [
        'donor.lastName',
        () =>
          t.post(
            '/donations',
            donationWith((b) => (b.donor.lastName = 'Citizen\u0085')),
          ),
      ],
      [
        'source.fundraiserId',
        () =>
          t.post(
            '/donations',
            donationWith((b) => (b.source.fundraiserId = '1000\u00000001')),
          ),
      ],
      ['query.id', () => t.get('/fundraisers', { query: { channel: 'Storefront App', id: '1000\t0001' } })],
      ['query.after', () => t.get('/events', { query: { after: 'evt\u009f' } })],
      ['url', () => t.post('/webhook-endpoints', { url: 'https://hooks.example.org/\tfundraising', events: ['*'] })],
      [
        'fundraiser.firstName',
        () =>
          t.post('/mandates', {
            source: { channel: 'Storefront App', fundraiserId: '10000001' },
            fundraiser: { firstName: 'Sam\r\n', lastName: 'Coach', email: 'sam@example.com' },
            paymentMethod: 'Direct Debit',
          }),
      ],
    ];
    for (const [field, send] of cases) {
      const response = await send();
      expect(response.statusCode, field).toBe(400);
      expect(response.json().error.cause, field).toContain(`${field}: must not contain`);
    }
  });

  it('every failing field is named in one answer', async () => {
    const body = donationWith((b) => {
      b.donor.firstName = 'A\nB';
      b.donor.billingAddress.street = '1\tMain St';
    });
    const response = await t.post('/donations', body);
    expectRefused(response, 'donor.firstName');
    expectRefused(response, 'donor.billingAddress.street');
  });

  it('accepts text just outside the ranges: no-break space, accents, emoji', async () => {
    const body = donationWith((b) => {
      b.donor.firstName = 'Zoë\u00a0Ann 😀';
      b.donor.billingAddress.street = 'Unit 2/1 Main St ~';
    });
    expect((await t.post('/donations', body)).statusCode).toBe(200);
  });
});

describe('free-form sourceMetadata is stored verbatim, control characters included', () => {
  it('accepts line breaks, tabs and other controls in values and property names, and stores them as sent', async () => {
    const sourceMetadata = {
      note: 'line 1\r\nline 2\ttabbed\u0007bell\u007f\u0085',
      'key\nwith break': ['\r', { nested: '\u001b[31m' }],
    };
    const body = { ...donationBody(), sourceMetadata };
    const response = await t.post('/donations', body);
    expect(response.statusCode, response.body).toBe(200);
    const reference = response.json().data.items.donationReferenceId as string;
    const stored = await t.db
      .selectFrom('donations')
      .select('source_metadata')
      .where('reference_id', '=', reference)
      .executeTakeFirstOrThrow();
    expect(stored.source_metadata).toEqual(sourceMetadata);
  });
});
