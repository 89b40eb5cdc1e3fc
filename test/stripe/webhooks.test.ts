import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedEvent } from '../helpers/stripe-stand-in.js';
import { createMandate, deliver, readMandate, startStripeApp, WEBHOOK_SECRET } from './support.js';

let s: Awaited<ReturnType<typeof startStripeApp>>;
beforeAll(async () => {
  s = await startStripeApp();
});
afterAll(async () => s.close());

const stored = (id: string) => s.t.db.selectFrom('mandates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const partnerEvents = async (id: string) =>
  (await s.t.db.selectFrom('webhook_events').selectAll().execute()).filter((e) => JSON.stringify(e).includes(id));

describe('POST /webhooks/stripe signature', () => {
  it('refuses a missing signature with 400 and changes nothing', async () => {
    const created = await createMandate(s.t);
    const { intent } = s.stripe.succeed(created.mandateId);
    const signed = signedEvent(WEBHOOK_SECRET, 'setup_intent.succeeded', intent);
    const response = await s.t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      headers: { 'content-type': 'application/json' },
      payload: signed.payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('FUNDRAISER:VALIDATION');
    expect((await stored(created.mandateId)).status).toBe('requires_payment_method');
  });

  it('refuses a payload signed with another secret, or altered after signing', async () => {
    const created = await createMandate(s.t);
    const { intent } = s.stripe.succeed(created.mandateId);
    const wrong = await deliver(s.t, 'setup_intent.succeeded', intent, { signWith: 'whsec_someone_else' });
    expect(wrong.response.statusCode).toBe(400);
    const signed = signedEvent(WEBHOOK_SECRET, 'setup_intent.canceled', { ...intent, status: 'canceled' });
    const altered = await s.t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      headers: signed.headers,
      payload: signed.payload.replace('canceled', 'succeeded'),
    });
    expect(altered.statusCode).toBe(400);
    expect((await stored(created.mandateId)).status).toBe('requires_payment_method');
    expect(await s.t.db.selectFrom('stripe_events').select('id').where('id', '=', signed.event.id).execute()).toEqual(
      [],
    );
  });
});

describe('POST /webhooks/stripe events', () => {
  it('a replayed event answers 200 and changes nothing (one partner event, not two)', async () => {
    const created = await createMandate(s.t);
    const { intent } = s.stripe.succeed(created.mandateId);
    const first = await deliver(s.t, 'setup_intent.succeeded', intent, { id: `evt_replay_${created.mandateId}` });
    expect(first.response.json().outcome).toBe('applied');
    const eventsAfterFirst = (await partnerEvents(created.mandateId)).length;
    const again = await deliver(
      s.t,
      'setup_intent.succeeded',
      { ...intent, status: 'canceled' },
      { id: first.event.id },
    );
    expect(again.response.statusCode).toBe(200);
    expect(again.response.json().outcome).toBe('replayed');
    expect((await readMandate(s.t, created.mandateId)).status).toBe('succeeded');
    expect((await partnerEvents(created.mandateId)).length).toBe(eventsAfterFirst);
  });

  it('an older event delivered late never overwrites a newer state', async () => {
    const created = await createMandate(s.t);
    const now = Math.floor(Date.now() / 1000);
    const pending = { ...s.stripe.setupIntents.get(created.mandateId)!, status: 'requires_action' };
    const { intent } = s.stripe.succeed(created.mandateId);
    expect((await deliver(s.t, 'setup_intent.succeeded', intent, { created: now })).response.json().outcome).toBe(
      'applied',
    );
    const late = await deliver(s.t, 'setup_intent.requires_action', pending, { created: now - 5 });
    expect(late.response.statusCode).toBe(200);
    expect(late.response.json().outcome).toBe('stale');
    expect((await readMandate(s.t, created.mandateId)).status).toBe('succeeded');
  });

  it('setup_intent.setup_failed, requires_action and canceled are shown', async () => {
    const created = await createMandate(s.t);
    const intent = s.stripe.setupIntents.get(created.mandateId)!;
    const now = Math.floor(Date.now() / 1000);
    await deliver(s.t, 'setup_intent.requires_action', { ...intent, status: 'requires_action' }, { created: now });
    expect((await readMandate(s.t, created.mandateId)).status).toBe('requires_action');
    const failed = {
      ...intent,
      status: 'requires_payment_method',
      last_setup_error: { type: 'invalid_request_error', code: 'account_closed' },
    };
    await deliver(s.t, 'setup_intent.setup_failed', failed, { created: now + 1 });
    expect((await readMandate(s.t, created.mandateId)).status).toBe('requires_payment_method');
    await deliver(s.t, 'setup_intent.canceled', { ...intent, status: 'canceled' }, { created: now + 2 });
    expect(await readMandate(s.t, created.mandateId)).toEqual({
      mandateId: created.mandateId,
      status: 'canceled',
      mandate: {},
    });
  });

  it('mandate.updated to inactive shows the mandate as inactive; an older mandate event is ignored', async () => {
    const created = await createMandate(s.t);
    const now = Math.floor(Date.now() / 1000);
    const { intent, mandate } = s.stripe.succeed(created.mandateId);
    await deliver(s.t, 'setup_intent.succeeded', intent, { created: now });
    const revoked = await deliver(s.t, 'mandate.updated', { ...mandate, status: 'inactive' }, { created: now + 10 });
    expect(revoked.response.json().outcome).toBe('applied');
    expect((await readMandate(s.t, created.mandateId)).mandate.status).toBe('inactive');
    const older = await deliver(s.t, 'mandate.updated', { ...mandate, status: 'active' }, { created: now + 5 });
    expect(older.response.json().outcome).toBe('stale');
    expect((await readMandate(s.t, created.mandateId)).mandate.status).toBe('inactive');
  });

  it('acknowledges and ignores unknown types and intents that are not ours', async () => {
    const unknown = await deliver(s.t, 'customer.created', { id: 'cus_x', object: 'customer' });
    expect(unknown.response.statusCode).toBe(200);
    expect(unknown.response.json().outcome).toBe('ignored');
    const foreign = await deliver(s.t, 'setup_intent.succeeded', {
      id: 'seti_elsewhere',
      object: 'setup_intent',
      status: 'succeeded',
      client_secret: 'seti_elsewhere_secret_x',
      metadata: {},
      mandate: null,
    });
    expect(foreign.response.json().outcome).toBe('ignored');
  });

  it('an event of ours that arrives before the mandate is stored is refused, so Stripe delivers it again', async () => {
    const response = (
      await deliver(s.t, 'setup_intent.requires_action', {
        id: 'seti_not_yet_stored',
        object: 'setup_intent',
        status: 'requires_action',
        client_secret: 'seti_not_yet_stored_secret_x',
        metadata: { mandateKey: 'mandate:x' },
        mandate: null,
      })
    ).response;
    expect(response.statusCode).toBe(404);
    expect(await s.t.db.selectFrom('stripe_events').select('id').where('type', '=', 'x').execute()).toEqual([]);
  });
});
