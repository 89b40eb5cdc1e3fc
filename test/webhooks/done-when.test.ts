import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { donate } from '../reconciliation/support.js';
import { noPaymentProvider, PRODUCTION_ENV, startReceiver, verify, webhookWorker, type Receiver } from './support.js';

/**
 * Partner webhooks end to end (docs/decisions/0040-partner-webhooks-outbox-and-standard-webhooks.md), at the HTTP
 * boundary: a sandbox partner registers http://127.0.0.1:<port>/hook, posts a
 * remittance batch and receives remittance.completed signed with the returned secret; its receiver's 500 to the
 * first attempt brings the event again on the configured schedule; a sandbox mandate confirmation produces
 * mandate.updated; GET /events lists both; a production-mode endpoint at a private address is refused.
 */
describe('partner webhooks: done when', () => {
  const RETRY_SECONDS = 2;
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: `${RETRY_SECONDS},${RETRY_SECONDS}` } });
    receiver = await startReceiver();
    // Like production: a worker polls the queue and runs each attempt when it is due.
    await webhookWorker(t).start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('delivers signed events, retries on schedule, logs them, and refuses a private address in production', async () => {
    const created = await t.post('/webhook-endpoints', { url: receiver.url, events: ['*'] });
    expect(created.statusCode).toBe(201);
    const endpoint = created.json().data.items;
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created.headers.location).toBe(`/v1/webhook-endpoints/${endpoint.id}`);

    // The receiver fails the first attempt, then accepts.
    receiver.respondWith((n) => (n === 1 ? 500 : 200));
    const donationId = await donate(t, '12.34');
    const batchResponse = await t.post('/remittances', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      remittances: [
        { bankReferenceId: 'BNK-DONE-1', amount: 12.34, donationIds: [donationId] },
        { bankReferenceId: 'BNK-DONE-2', amount: 5, donationIds: ['DON-UNKNOWN'] },
      ],
    });
    expect(batchResponse.statusCode).toBe(202);
    const batchId = batchResponse.json().data.items.batchId as string;
    expect(batchResponse.headers.location).toBe(`/v1/remittances/${batchId}`);
    await t.reconcile();

    await receiver.waitFor(() => receiver.ofType('remittance.completed').length >= 2);
    const [first, second] = receiver.ofType('remittance.completed');
    expect(first!.status).toBe(500);
    expect(second!.status).toBe(200);
    // On the configured schedule: 2 s ± 10% jitter, plus at most a polling interval and the attempt itself.
    const gap = second!.at - first!.at;
    expect(gap).toBeGreaterThanOrEqual(RETRY_SECONDS * 900 - 50);
    expect(gap).toBeLessThan(RETRY_SECONDS * 1100 + 3000);
    // The same message both times (receivers deduplicate on webhook-id), each signature verifying with the secret.
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    for (const request of [first!, second!]) expect(verify(endpoint.secret, request)).toBeTruthy();
    const event = second!.json();
    expect(event).toMatchObject({
      type: 'remittance.completed',
      data: {
        batchId,
        status: 'completed_with_exceptions',
        counts: { entries: 2, matched: 1, exceptions: 1, byOutcome: { matched: 1, unknown_donation: 1 } },
        amounts: { total: 17.34, matched: 12.34, exceptions: 5, byOutcome: { matched: 12.34, unknown_donation: 5 } },
        url: `http://127.0.0.1:3000/v1/remittances/${batchId}`,
      },
    });
    expect(new Date(event.timestamp).toISOString()).toBe(event.timestamp);
    expect(() => verify('whsec_' + Buffer.alloc(32, 1).toString('base64'), second!)).toThrow();

    // A sandbox mandate confirmation produces mandate.updated: the mandate exactly as GET /mandates shows it.
    const mandate = await t.post('/mandates', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam.coach@example.com' },
      paymentMethod: 'Direct Debit',
    });
    const mandateId = mandate.json().data.items.mandateId as string;
    expect(mandate.headers.location).toBe(`/v1/mandates?id=${mandateId}`);
    const confirmed = await t.post(`/sandbox/mandates/${mandateId}/confirm`, {
      bsb: '000-000',
      accountNumber: '000123456',
    });
    expect(confirmed.statusCode).toBe(200);
    await receiver.waitFor(() => receiver.ofType('mandate.updated').length >= 1);
    const mandateEvent = receiver.ofType('mandate.updated')[0]!;
    expect(verify(endpoint.secret, mandateEvent)).toBeTruthy();
    const shown = (await t.get('/mandates', { query: { id: mandateId } })).json().data.items;
    expect(shown.status).toBe('succeeded');
    expect(mandateEvent.json().data).toEqual(shown);

    // GET /events lists both, in sequence order, exactly as they were delivered.
    const events = (await t.get('/events')).json().data.items;
    expect(events.events.map((e: { type: string }) => e.type)).toEqual(['remittance.completed', 'mandate.updated']);
    expect(events.events.map((e: { sequence: number }) => e.sequence)).toEqual([1, 2]);
    expect(events.events[0]).toEqual(event);
    expect(events.events[1]).toEqual(mandateEvent.json());
    expect(events.events[0].id).toBe(first!.headers['webhook-id']);
    const after = (await t.get('/events', { query: { after: events.events[0].id } })).json().data.items;
    expect(after).toEqual({ events: [events.events[1]], hasMore: false });

    // In production, an endpoint at a private address is refused, naming `url`.
    const production = await startTestApp({ env: PRODUCTION_ENV, deps: { payments: noPaymentProvider } });
    try {
      const refused = await production.post('/webhook-endpoints', { url: 'https://10.1.2.3/hook', events: ['*'] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'FUNDRAISER:VALIDATION' });
      expect(refused.json().error.cause).toMatch(/^url: 10\.1\.2\.3 is a private address/);
      const list = await production.get('/webhook-endpoints');
      expect(list.json().data.items).toEqual([]);
    } finally {
      await production.close();
    }
  }, 120_000);

  it('lists the attempts of each delivery for the partner', async () => {
    const [endpoint] = (await t.get('/webhook-endpoints')).json().data.items;
    const deliveries = (await t.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).json().data.items;
    const remittance = deliveries.find((d: { eventType: string }) => d.eventType === 'remittance.completed');
    expect(remittance).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(remittance.attemptLog.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([500, 200]);
    expect(remittance.attemptLog[0].responseSnippet).toBe('receiver says no (500)');
    expect(remittance.attemptLog[0].latencyMs).toBeGreaterThanOrEqual(0);
  });
});
