import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, dateIn, startOfDate } from '../../src/domain/calendar-date.js';
import { confirmedMandate, deliver, readMandate, startStripeApp } from './support.js';

/**
 * Recurring donations with PAYMENT_PROVIDER=stripe: debits collected through the real job path (the recurring
 * worker's scan and collection jobs) by the real SDK against the stand-in, their outcomes told by signed webhooks.
 * The test clock is what background work reads; it only moves when a test moves it.
 */
let s: Awaited<ReturnType<typeof startStripeApp>>;
beforeAll(async () => {
  // A generous SDK timeout: a webhook is delivered while a PaymentIntent's creation waits for its answer.
  s = await startStripeApp({ STRIPE_TIMEOUT_MS: '20000' });
}, 180_000);
afterAll(async () => s?.close(), 60_000);

const DAY_MS = 24 * 60 * 60 * 1000;
const zone = () => s.t.config.FOUNDATION_TIME_ZONE;
/** The test clock as Stripe's `created` (epoch seconds). */
const at = () => Math.floor(s.t.clock.now().getTime() / 1000);
const today = () => dateIn(s.t.clock.now(), zone());

/** Moves the test clock on to midday of `date` in the foundation's time zone. */
function moveTo(date: string) {
  const target = startOfDate(date, zone()).getTime() + DAY_MS / 2;
  const ms = target - s.t.clock.now().getTime();
  if (ms > 0) s.t.clock.advance(ms);
}

const paymentIntentCreations = () =>
  s.stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');

/** The PaymentIntent the stand-in holds for a try of a debit (its metadata names both). */
function intentOf(debitId: string, attempt: number) {
  const intents = [...s.stripe.paymentIntents.values()].filter((pi) => {
    const metadata = pi.metadata as Record<string, string>;
    return metadata.debitId === debitId && metadata.attempt === String(attempt);
  });
  expect(intents).toHaveLength(1);
  return structuredClone(intents[0]!);
}

const readPlan = async (id: string) => (await s.t.get(`/recurring-donations/${id}`)).json().data.items;

async function eventsOf() {
  const events: { id: string; type: string; data: Record<string, any> }[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await s.t.get('/events', { query: { limit: '500', ...(after ? { after } : {}) } });
    const items = page.json().data.items as { events: typeof events; hasMore: boolean };
    events.push(...items.events);
    if (!items.hasMore) return events;
    after = items.events.at(-1)!.id;
  }
}

const eventsOfDebit = async (type: string, debitId: string) =>
  (await eventsOf()).filter((e) => e.type === type && e.data.debit?.debitId === debitId);

const recordedEvent = (id: string) =>
  s.t.db.selectFrom('stripe_events').select('id').where('id', '=', id).executeTakeFirst();

describe('recurring donations collected through Stripe', () => {
  let mandate: Awaited<ReturnType<typeof confirmedMandate>>;
  let planId: string;
  let start: string;
  let first: { debitId: string; intent: Record<string, unknown>; processingCreated: number };

  it('a setup intent that succeeds keeps its customer and payment method for the mandate’s debits', async () => {
    mandate = await confirmedMandate(s, at());
    const row = await s.t.db
      .selectFrom('mandates')
      .selectAll()
      .where('id', '=', mandate.mandateId)
      .executeTakeFirstOrThrow();
    expect(row.provider_customer_id).toBe(mandate.intent.customer);
    expect(row.provider_customer_id).toMatch(/^cus_/);
    expect(row.provider_payment_method_id).toBe(mandate.mandate.payment_method);
    expect(row.provider_mandate_id).toBe(mandate.mandate.id);
  });

  it('submits the first debit as a PaymentIntent confirmed off-session on the mandate, under the try’s key', async () => {
    start = today();
    const created = await s.t.post('/recurring-donations', {
      mandateId: mandate.mandateId,
      amount: '20.00',
      frequency: 'monthly',
      startDate: start,
      partnerReference: 'stripe-monthly',
    });
    expect(created.statusCode).toBe(201);
    const plan = created.json().data.items;
    planId = plan.recurringDonationId;
    expect(plan.debits).toHaveLength(1);
    const debitId: string = plan.debits[0].debitId;

    // Stripe sends payment_intent.processing at once: it reaches us before the job has recorded the submission.
    let early: Awaited<ReturnType<typeof deliver>> | undefined;
    s.stripe.onPaymentIntentCreated = async (intent) => {
      early = await deliver(s.t, 'payment_intent.processing', intent, { created: at() });
    };
    const requestsBefore = s.stripe.requests.length;
    try {
      expect(await s.t.recurring.runPending()).toBe(1);
    } finally {
      s.stripe.onPaymentIntentCreated = null;
    }

    // One call to Stripe: the customer and payment method were kept, nothing is read back from the setup intent.
    const calls = s.stripe.requests.slice(requestsBefore);
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/payment_intents']);
    const request = calls[0]!;
    expect(request.idempotencyKey).toBe(`pi:debit:${debitId}:1`);
    expect(Object.fromEntries(request.params)).toMatchObject({
      amount: '2000',
      currency: 'aud',
      customer: mandate.intent.customer,
      payment_method: mandate.mandate.payment_method,
      mandate: mandate.mandate.id,
      'allowed_payment_method_types[0]': 'au_becs_debit',
      confirm: 'true',
      off_session: 'true',
      'metadata[debitId]': debitId,
      'metadata[attempt]': '1',
      'metadata[recurringDonationId]': planId,
    });
    expect([...request.params.keys()].filter((k) => k.includes('payment_method_types'))).toEqual([
      'allowed_payment_method_types[0]',
    ]);

    // The early event was refused (non-2xx) and not recorded, so Stripe's redelivery is applied.
    expect(early?.response.statusCode).toBe(404);
    expect(await recordedEvent(early!.event.id)).toBeUndefined();
    const debit = (await readPlan(planId)).debits[0];
    expect(debit).toMatchObject({ debitId, status: 'processing', attempts: 1, donationReferenceId: null });
    const redelivered = await deliver(s.t, 'payment_intent.processing', early!.event.data.object, {
      id: early!.event.id,
      created: early!.event.created,
    });
    expect(redelivered.response.statusCode).toBe(200);
    expect(redelivered.response.json().outcome).toBe('applied');
    first = { debitId, intent: intentOf(debitId, 1), processingCreated: early!.event.created };
  });

  it('a try submitted again after its record was lost reaches the same PaymentIntent', async () => {
    // As if the job died between Stripe's answer and its commit: the try is unrecorded, and collected again.
    await s.t.db
      .updateTable('debits')
      .set({ status: 'scheduled', attempts: 0, queued_attempt: 0, provider_payment_id: null, submitted_at: null })
      .where('id', '=', first.debitId)
      .execute();
    const intents = s.stripe.paymentIntents.size;
    const creations = paymentIntentCreations().length;
    expect(await s.t.recurring.scan()).toMatchObject({ triesQueued: 1 });
    expect(await s.t.recurring.runPending()).toBe(1);
    expect(paymentIntentCreations()).toHaveLength(creations + 1);
    expect(paymentIntentCreations().at(-1)!.idempotencyKey).toBe(`pi:debit:${first.debitId}:1`);
    expect(s.stripe.paymentIntents.size).toBe(intents);
    const row = await s.t.db.selectFrom('debits').selectAll().where('id', '=', first.debitId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'processing', attempts: 1, provider_payment_id: first.intent.id });
  });

  it('payment_intent.succeeded makes the debit a donation settled by it', async () => {
    s.t.clock.advance(2 * DAY_MS);
    const succeeded = await deliver(
      s.t,
      'payment_intent.succeeded',
      s.stripe.succeedPayment(first.intent.id as string),
      {
        created: at(),
      },
    );
    expect(succeeded.response.json().outcome).toBe('applied');

    const debit = (await readPlan(planId)).debits[0];
    expect(debit).toMatchObject({ status: 'succeeded', attempts: 1, failure: null, disputedAt: null });
    expect(debit.donationReferenceId).toMatch(/^DON-/);
    const donation = await s.t.db
      .selectFrom('donations')
      .selectAll()
      .where('debit_id', '=', first.debitId)
      .executeTakeFirstOrThrow();
    expect(donation).toMatchObject({ reference_id: debit.donationReferenceId, collected_by: 'foundation' });
    const settlements = await s.t.db
      .selectFrom('donation_settlements')
      .selectAll()
      .where('debit_id', '=', first.debitId)
      .execute();
    expect(settlements).toHaveLength(1);
    expect(settlements[0]).toMatchObject({
      donation_id: donation.id,
      donation_reference_id: debit.donationReferenceId,
    });
    expect(Number(settlements[0]!.amount_cents)).toBe(2000);
    expect(await eventsOfDebit('recurring_donation.debit_succeeded', first.debitId)).toHaveLength(1);

    // Stripe delivers again, and out of order: nothing changes, no second donation, no second partner event.
    const shown = await readPlan(planId);
    const eventCount = (await eventsOf()).length;
    const replay = await deliver(s.t, 'payment_intent.succeeded', succeeded.event.data.object, {
      id: succeeded.event.id,
      created: succeeded.event.created,
    });
    expect(replay.response.statusCode).toBe(200);
    expect(replay.response.json().outcome).toBe('replayed');
    const processing = { ...first.intent, status: 'processing' };
    for (const created of [first.processingCreated, succeeded.event.created]) {
      const late = await deliver(s.t, 'payment_intent.processing', processing, { created });
      expect(late.response.statusCode).toBe(200);
      expect(late.response.json().outcome).toBe('stale');
      expect(await recordedEvent(late.event.id)).toBeDefined();
    }
    expect(await readPlan(planId)).toEqual(shown);
    expect((await eventsOf()).length).toBe(eventCount);
    const donations = await s.t.db.selectFrom('donations').select('id').where('debit_id', '=', first.debitId).execute();
    expect(donations).toHaveLength(1);
  });

  it('charge.dispute.created marks the collected debit disputed', async () => {
    s.t.clock.advance(DAY_MS);
    const dispute = s.stripe.dispute(first.intent.id as string);
    const disputed = await deliver(s.t, 'charge.dispute.created', dispute, { created: at() });
    expect(disputed.response.json().outcome).toBe('applied');
    const debit = (await readPlan(planId)).debits[0];
    expect(debit.disputedAt).toBe(new Date(disputed.event.created * 1000).toISOString());
    expect(debit.status).toBe('succeeded');
    const again = await deliver(s.t, 'charge.dispute.created', dispute, { created: at() });
    expect(again.response.json().outcome).toBe('stale');
    const foreign = await deliver(s.t, 'charge.dispute.created', {
      ...dispute,
      payment_intent: 'pi_x',
    });
    expect(foreign.response.json().outcome).toBe('ignored');
  });

  it('a debit refused for insufficient funds is tried again on its retry date, under attempt 2’s key', async () => {
    const dueDate = addMonths(start, 1);
    moveTo(dueDate);
    expect(await s.t.recurring.scan()).toMatchObject({ debitsCreated: 1 });
    expect(await s.t.recurring.runPending()).toBe(1);
    const debitId: string = (await readPlan(planId)).debits[1].debitId;
    const firstTry = intentOf(debitId, 1);
    expect(paymentIntentCreations().at(-1)!.idempotencyKey).toBe(`pi:debit:${debitId}:1`);

    const refused = s.stripe.failPayment(firstTry.id as string, {
      code: 'insufficient_funds',
      message: 'The customer’s account has insufficient funds to cover this payment.',
    });
    const failed = await deliver(s.t, 'payment_intent.payment_failed', refused, { created: at() });
    expect(failed.response.json().outcome).toBe('applied');
    const retryOn = addDays(dueDate, 3);
    const plan = await readPlan(planId);
    expect(plan.status).toBe('active');
    expect(plan.debits[1]).toMatchObject({
      status: 'failed',
      attempts: 1,
      nextAttemptOn: retryOn,
      failure: { code: 'insufficient_funds', message: 'Insufficient funds in the account' },
    });
    const told = await eventsOfDebit('recurring_donation.debit_failed', debitId);
    expect(told).toHaveLength(1);
    expect(told[0]!.data.debit.nextAttemptOn).toBe(retryOn);

    // Not the day before its retry date…
    const creations = paymentIntentCreations().length;
    moveTo(addDays(retryOn, -1));
    expect(await s.t.recurring.scan()).toMatchObject({ triesQueued: 0 });
    expect(await s.t.recurring.runPending()).toBe(0);
    expect(paymentIntentCreations()).toHaveLength(creations);
    // …but on it: a second PaymentIntent, under the key of attempt 2.
    moveTo(retryOn);
    expect(await s.t.recurring.scan()).toMatchObject({ triesQueued: 1 });
    expect(await s.t.recurring.runPending()).toBe(1);
    expect(paymentIntentCreations()).toHaveLength(creations + 1);
    const retry = paymentIntentCreations().at(-1)!;
    expect(retry.idempotencyKey).toBe(`pi:debit:${debitId}:2`);
    expect(retry.params.get('metadata[attempt]')).toBe('2');
    const secondTry = intentOf(debitId, 2);
    expect(secondTry.id).not.toBe(firstTry.id);

    // The first try's word, arriving late, is about an earlier try: it changes nothing.
    const lateFirst = await deliver(
      s.t,
      'payment_intent.processing',
      { ...refused, status: 'processing' },
      {
        created: at(),
      },
    );
    expect(lateFirst.response.json().outcome).toBe('stale');

    s.t.clock.advance(2 * DAY_MS);
    const collected = await deliver(s.t, 'payment_intent.succeeded', s.stripe.succeedPayment(secondTry.id as string), {
      created: at(),
    });
    expect(collected.response.json().outcome).toBe('applied');
    const debit = (await readPlan(planId)).debits[1];
    expect(debit).toMatchObject({ status: 'succeeded', attempts: 2, failure: null, nextAttemptOn: null });
    expect(debit.donationReferenceId).toMatch(/^DON-/);
  });

  it('mandate.updated to inactive (revoked by the payer) cancels the plan and tells the partner', async () => {
    s.t.clock.advance(DAY_MS);
    const revoked = await deliver(s.t, 'mandate.updated', s.stripe.revokeMandate(mandate.mandate.id), {
      created: at(),
    });
    expect(revoked.response.json().outcome).toBe('applied');
    expect((await readMandate(s.t, mandate.mandateId)).mandate.status).toBe('inactive');
    const plan = await readPlan(planId);
    expect(plan).toMatchObject({
      status: 'canceled',
      canceledReason: 'The mandate can no longer be debited',
      nextDebitDate: null,
    });
    const canceled = (await eventsOf()).filter(
      (e) => e.type === 'recurring_donation.canceled' && e.data.recurringDonation.recurringDonationId === planId,
    );
    expect(canceled).toHaveLength(1);
    expect(canceled[0]!.data.recurringDonation.status).toBe('canceled');

    // Its next date comes and goes: no debit, no PaymentIntent.
    const creations = paymentIntentCreations().length;
    moveTo(addMonths(start, 2));
    expect(await s.t.recurring.scan()).toMatchObject({ debitsCreated: 0, triesQueued: 0 });
    expect(await s.t.recurring.runPending()).toBe(0);
    expect(paymentIntentCreations()).toHaveLength(creations);
  });
});

describe('Stripe debit events that are not for us, or not yet', () => {
  it('a PaymentIntent without our metadata is acknowledged and ignored', async () => {
    const foreign = await deliver(s.t, 'payment_intent.succeeded', {
      id: 'pi_elsewhere',
      object: 'payment_intent',
      status: 'succeeded',
      amount: 1000,
      currency: 'aud',
      metadata: { orderId: '42' },
    });
    expect(foreign.response.statusCode).toBe(200);
    expect(foreign.response.json().outcome).toBe('ignored');
  });

  it('an event naming a debit that is not recorded is refused, so Stripe delivers it again', async () => {
    const unknown = await deliver(s.t, 'payment_intent.succeeded', {
      id: 'pi_not_recorded',
      object: 'payment_intent',
      status: 'succeeded',
      metadata: { debitId: 'DBT-NOTRECORDEDYET', attempt: '1' },
    });
    expect(unknown.response.statusCode).toBe(404);
    expect(await recordedEvent(unknown.event.id)).toBeUndefined();
  });

  it('a bank refusal for good (decline_code account_closed) is not retried and ends the mandate’s plans', async () => {
    const closing = await confirmedMandate(s, at());
    const created = await s.t.post('/recurring-donations', {
      mandateId: closing.mandateId,
      amount: '15.50',
      frequency: 'weekly',
      startDate: today(),
    });
    expect(created.statusCode).toBe(201);
    const plan = created.json().data.items;
    expect(await s.t.recurring.runPending()).toBe(1);
    const debitId: string = plan.debits[0].debitId;
    expect(paymentIntentCreations().at(-1)!.params.get('amount')).toBe('1550');
    const refused = s.stripe.failPayment(intentOf(debitId, 1).id as string, {
      code: 'bank_account_declined',
      decline_code: 'account_closed',
      message: 'The bank account has been closed.',
    });
    s.t.clock.advance(3 * DAY_MS);
    const failed = await deliver(s.t, 'payment_intent.payment_failed', refused, { created: at() });
    expect(failed.response.json().outcome).toBe('applied');
    const read = await readPlan(plan.recurringDonationId);
    expect(read.debits[0]).toMatchObject({
      status: 'failed',
      nextAttemptOn: null,
      failure: { code: 'account_closed', message: 'The bank account is closed' },
    });
    expect(read).toMatchObject({ status: 'canceled', canceledReason: 'The mandate can no longer be debited' });
    expect((await readMandate(s.t, closing.mandateId)).mandate.status).toBe('inactive');
  });
});
