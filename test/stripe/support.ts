import { randomUUID } from 'node:crypto';
import { signedEvent, StripeStandIn } from '../helpers/stripe-stand-in.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

export const WEBHOOK_SECRET = 'whsec_test_stand_in_secret';

/** The service with PAYMENT_PROVIDER=stripe, the real SDK pointed at a stand-in on loopback. */
export async function startStripeApp(env: Record<string, string> = {}) {
  const stripe = await new StripeStandIn().start();
  const t = await startTestApp({
    env: {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_standin123',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      STRIPE_TIMEOUT_MS: '2000',
      ...env,
    },
  });
  return {
    t,
    stripe,
    async close() {
      await t.close();
      await stripe.stop();
    },
  };
}

export const mandateBody = () => ({
  source: { channel: 'Storefront App', fundraiserId: '10000001' },
  fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam.coach@example.com' },
  paymentMethod: 'Direct Debit',
});

export async function createMandate(t: TestApp, key: string = randomUUID()) {
  const response = await t.post('/mandates', mandateBody(), { headers: { 'idempotency-key': key } });
  if (response.statusCode !== 200) throw new Error(`mandate refused: ${response.body}`);
  return response.json().data.items as { mandateId: string; clientSecret: string };
}

/** POSTs a Stripe event to /webhooks/stripe, signed with the webhook secret unless told otherwise. */
export async function deliver(
  t: TestApp,
  type: string,
  object: unknown,
  options: Parameters<typeof signedEvent>[3] = {},
) {
  const signed = signedEvent(WEBHOOK_SECRET, type, object, options);
  const response = await t.app.inject({
    method: 'POST',
    url: '/webhooks/stripe',
    headers: signed.headers,
    payload: signed.payload,
  });
  return { response, event: signed.event };
}

export const readMandate = async (t: TestApp, id: string) =>
  (await t.get('/mandates', { query: { id } })).json().data.items;

/** A mandate confirmed at the stand-in and told to the service by `setup_intent.succeeded`, as Stripe would. */
export async function confirmedMandate(s: { t: TestApp; stripe: StripeStandIn }, created: number) {
  const { mandateId } = await createMandate(s.t);
  const { intent, mandate } = s.stripe.succeed(mandateId, created);
  const { response } = await deliver(s.t, 'setup_intent.succeeded', intent, { created });
  if (response.statusCode !== 200) throw new Error(`setup_intent.succeeded refused: ${response.body}`);
  return { mandateId, intent, mandate };
}
