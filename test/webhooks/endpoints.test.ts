import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { registerEndpoint, signedWith, startReceiver, verify, webhookWorker, type Receiver } from './support.js';

/** The partner's self-service: register, list, read, delete, rotate, test; envelope, errors and idempotency. */
describe('webhook endpoints (self-service)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let worker: ReturnType<typeof webhookWorker>;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ROTATION_OVERLAP_SECONDS: '3600' } });
    receiver = await startReceiver();
    worker = webhookWorker(t);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('registers an endpoint: 201 with the secret once, then lists and reads it without the secret', async () => {
    const endpoint = await registerEndpoint(t, receiver.url, ['mandate.updated']);
    expect(endpoint).toMatchObject({ url: receiver.url, status: 'enabled', events: ['mandate.updated'] });
    const listed = await t.get('/webhook-endpoints');
    expect(listed.json()).toMatchObject({ method: '/webhook-endpoints', data: { items: [{ id: endpoint.id }] } });
    expect(listed.body).not.toContain('whsec_');
    const read = await t.get(`/webhook-endpoints/${endpoint.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.items).not.toHaveProperty('secret');
  });

  it('replays the same Idempotency-Key with the same endpoint; another body with it is 409', async () => {
    const headers = { 'idempotency-key': 'register-once' };
    const first = await t.post('/webhook-endpoints', { url: receiver.url, events: ['*'] }, { headers });
    const again = await t.post('/webhook-endpoints', { url: receiver.url, events: ['*'] }, { headers });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.items.id).toBe(first.json().data.items.id);
    expect(again.json().data.items.secret).toBe(first.json().data.items.secret);
    const other = await t.post('/webhook-endpoints', { url: receiver.url, events: ['mandate.updated'] }, { headers });
    expect(other.statusCode).toBe(409);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ url: 'not a url', events: ['*'] }, /^url: must be an absolute URL/],
      [{ url: 'ftp://127.0.0.1/x', events: ['*'] }, /^url: must use http or https/],
      [{ url: 'http://user:pw@127.0.0.1/x', events: ['*'] }, /^url: must not contain credentials/],
      [{ url: 'http://10.0.0.8/hook', events: ['*'] }, /^url: 10\.0\.0\.8 is a private address/],
      [{ url: 'http://169.254.169.254/latest', events: ['*'] }, /^url: 169\.254\.169\.254 is a linkLocal address/],
      [{ url: 'http://[fd00::1]/hook', events: ['*'] }, /^url: fd00::1 is a uniqueLocal address/],
      [{ url: receiver.url, events: ['nope'] }, /events/],
      [{ url: receiver.url, events: [] }, /events/],
    ];
    for (const [body, cause] of cases) {
      const response = await t.post('/webhook-endpoints', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.cause).toMatch(cause);
    }
  });

  it("answers another partner's endpoint exactly like an unknown one", async () => {
    const endpoint = await registerEndpoint(t, receiver.url);
    for (const path of [`/webhook-endpoints/${endpoint.id}`, `/webhook-endpoints/${endpoint.id}/deliveries`]) {
      const response = await t.get(path, { as: t.registration });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('FUNDRAISER:NOT_FOUND');
    }
    expect((await t.call('DELETE', `/webhook-endpoints/${endpoint.id}`, { as: t.registration })).statusCode).toBe(404);
    expect((await t.post(`/webhook-endpoints/${endpoint.id}/test`, undefined, { as: t.registration })).statusCode).toBe(
      404,
    );
  });

  it('rotates the secret with an overlap in which both secrets verify, then only the new one', async () => {
    const endpoint = await registerEndpoint(t, receiver.url);
    const rotated = await t.post(`/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined);
    expect(rotated.statusCode).toBe(200);
    const { secret, previousSecretExpiresAt } = rotated.json().data.items;
    expect(secret).not.toBe(endpoint.secret);
    expect(Date.parse(previousSecretExpiresAt) - Date.now()).toBeGreaterThan(3500_000);

    const sent = await t.post(`/webhook-endpoints/${endpoint.id}/test`, undefined);
    expect(sent.statusCode).toBe(202);
    await worker.runPending();
    const during = receiver.requests.at(-1)!;
    expect(during.json()).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id } });
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(secret, during)).toBeTruthy();
    expect(verify(endpoint.secret, during)).toBeTruthy();

    // Once the overlap is over, only the new secret signs.
    const later = webhookWorker(t, { now: () => new Date(Date.now() + 3601_000) });
    await t.post(`/webhook-endpoints/${endpoint.id}/test`, undefined);
    await later.runPending();
    const after = receiver.requests.at(-1)!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(signedWith(secret, after)).toBe(true);
    expect(signedWith(endpoint.secret, after)).toBe(false);
  });

  it('deletes an endpoint: gone from the list, nothing more sent to it', async () => {
    const endpoint = await registerEndpoint(t, receiver.url);
    const deleted = await t.call('DELETE', `/webhook-endpoints/${endpoint.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data.items).toEqual({ id: endpoint.id, deleted: true });
    const ids = (await t.get('/webhook-endpoints')).json().data.items.map((e: { id: string }) => e.id);
    expect(ids).not.toContain(endpoint.id);
    expect((await t.post(`/webhook-endpoints/${endpoint.id}/test`, undefined)).statusCode).toBe(404);
  });

  it('sends each event type only to endpoints subscribed to it', async () => {
    const before = receiver.requests.length;
    const mandate = await t.post('/mandates', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam.coach@example.com' },
      paymentMethod: 'Direct Debit',
    });
    const mandateId = mandate.json().data.items.mandateId as string;
    await t.post(`/sandbox/mandates/${mandateId}/confirm`, { bsb: '000-000', accountNumber: '900123456' });
    // processing, then succeeded on the next read: two changes, two events, in order.
    expect((await t.get('/mandates', { query: { id: mandateId } })).json().data.items.status).toBe('succeeded');
    await worker.runPending();
    const received = receiver.requests.slice(before).map((r) => r.json());
    const statuses = received.filter((e) => e.data.mandateId === mandateId).map((e) => e.data.status);
    // Every endpoint left is subscribed (to mandate.updated, or *): each change reaches each once, and the
    // deleted endpoint gets nothing.
    const endpoints = (await t.get('/webhook-endpoints')).json().data.items as { id: string }[];
    expect(statuses.filter((s) => s === 'processing')).toHaveLength(endpoints.length);
    expect(statuses.filter((s) => s === 'succeeded')).toHaveLength(endpoints.length);
    const confirmations = receiver.requests.slice(before).filter((r) => r.json().data.mandateId === mandateId);
    expect(new Set(confirmations.map((r) => r.headers['webhook-id'])).size).toBe(2);
    const log = (await t.get('/events')).json().data.items.events as { type: string; sequence: number }[];
    const sequences = log.map((e) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
  });

  it('refuses an unknown `after` in the event log with a 400 naming it', async () => {
    const response = await t.get('/events', { query: { after: 'evt_NOPE' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toMatch(/^after: /);
    // Another partner's log is its own.
    expect((await t.get('/events', { as: t.registration })).json().data.items).toEqual({ events: [], hasMore: false });
  });
});
