import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMandate, deliver, mandateBody, readMandate, startStripeApp } from './support.js';

let s: Awaited<ReturnType<typeof startStripeApp>>;
beforeAll(async () => {
  s = await startStripeApp();
});
afterAll(async () => s.close());
beforeEach(() => {
  s.stripe.mode = 'normal';
});

const setupIntentCreations = () =>
  s.stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/setup_intents');

describe('POST /mandates with PAYMENT_PROVIDER=stripe', () => {
  it('creates a Customer and a BECS-only off-session SetupIntent, answering with its client secret', async () => {
    const before = setupIntentCreations().length;
    const created = await createMandate(s.t);
    const intent = s.stripe.setupIntents.get(created.mandateId)!;
    expect(created.clientSecret).toBe(intent.client_secret);
    expect(intent.allowed_payment_method_types).toEqual(['au_becs_debit']);
    expect(intent.usage).toBe('off_session');
    expect(intent.customer).toMatch(/^cus_/);
    expect(intent.metadata).toMatchObject({ fundraiserId: '10000001', partnerId: expect.any(String) });
    expect((intent.metadata as Record<string, string>).mandateKey).toMatch(/^mandate:/);
    const request = setupIntentCreations().at(-1)!;
    expect(request.params.has('payment_method_types[0]')).toBe(false);
    expect(request.idempotencyKey).toMatch(/^seti:mandate:/);
    expect(setupIntentCreations().length).toBe(before + 1);
  });

  it('reuses the Customer of the partner and fundraiser', async () => {
    const first = await createMandate(s.t);
    const second = await createMandate(s.t);
    expect(s.stripe.setupIntents.get(second.mandateId)!.customer).toBe(
      s.stripe.setupIntents.get(first.mandateId)!.customer,
    );
  });

  it('a retry with the same Idempotency-Key creates no second SetupIntent', async () => {
    const key = randomUUID();
    const before = s.stripe.setupIntents.size;
    const first = await createMandate(s.t, key);
    const again = await s.t.post('/mandates', mandateBody(), { headers: { 'idempotency-key': key } });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.items.mandateId).toBe(first.mandateId);
    expect(s.stripe.setupIntents.size).toBe(before + 1);
  });

  it('a retry after our answer was lost reaches the same SetupIntent through Stripe’s idempotency', async () => {
    const key = randomUUID();
    const before = s.stripe.setupIntents.size;
    // The first attempt reaches Stripe but our record is lost (as if the instance died before committing).
    const first = await createMandate(s.t, key);
    await s.t.db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
    await s.t.db.deleteFrom('mandates').where('id', '=', first.mandateId).execute();
    const retried = await createMandate(s.t, key);
    expect(retried.mandateId).toBe(first.mandateId);
    expect(s.stripe.setupIntents.size).toBe(before + 1);
  });

  it('Stripe unreachable: 503 FUNDRAISER:UNAVAILABLE with Retry-After, and no mandate recorded', async () => {
    s.stripe.mode = 'server-error';
    const count = await s.t.db
      .selectFrom('mandates')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirst();
    const response = await s.t.post('/mandates', mandateBody());
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('FUNDRAISER:UNAVAILABLE');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    const after = await s.t.db
      .selectFrom('mandates')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(after).toEqual(count);
  });

  it('Stripe refusing our key: 500 with nothing internal in the body', async () => {
    s.stripe.mode = 'auth-error';
    const response = await s.t.post('/mandates', mandateBody());
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body.error.code).toBe('FUNDRAISER:UNKNOWN');
    expect(response.body).not.toMatch(/stripe|sk_test|STRIPE_SECRET_KEY|api key/i);
  });

  it('GET /mandates answers from stored state without calling Stripe', async () => {
    const created = await createMandate(s.t);
    const before = s.stripe.requests.length;
    const record = await readMandate(s.t, created.mandateId);
    expect(record).toEqual({ mandateId: created.mandateId, status: 'requires_payment_method', mandate: {} });
    expect(s.stripe.requests.length).toBe(before);
  });
});

describe('Stripe down entirely (connection refused)', () => {
  it('answers 503 with Retry-After', async () => {
    const down = await startStripeApp();
    await down.stripe.stop();
    try {
      const response = await down.t.post('/mandates', mandateBody());
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBeDefined();
    } finally {
      await down.t.close();
    }
  });
});

describe('a mandate confirmed at Stripe', () => {
  it('setup_intent.succeeded makes GET /mandates show succeeded with acceptedAt, paymentMethod and url', async () => {
    const created = await createMandate(s.t);
    const acceptedAt = Math.floor(Date.UTC(2026, 10, 23, 9, 30) / 1000);
    const { intent, mandate } = s.stripe.succeed(created.mandateId, acceptedAt);
    const { response } = await deliver(s.t, 'setup_intent.succeeded', intent);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, outcome: 'applied' });
    expect(await readMandate(s.t, created.mandateId)).toEqual({
      mandateId: created.mandateId,
      status: 'succeeded',
      mandate: {
        acceptedAt: '2026-11-23T09:30:00.000Z',
        paymentMethod: 'au_becs_debit',
        url: (mandate.payment_method_details as { au_becs_debit: { url: string } }).au_becs_debit.url,
        status: 'active',
      },
    });
  });
});
