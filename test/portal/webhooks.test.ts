import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPartnerIds, getPortalPage, portalUser, postPortalForm, signInPortal } from '../helpers/portal.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, webhookWorker, type Receiver } from '../webhooks/support.js';

/**
 * The portal's Webhooks pages: endpoints (add, test, disable/enable, rotate), deliveries with their attempts and
 * answers, resend one or every failed one since a time, the event log; each role, and another partner's objects
 * answering exactly like unknown ones.
 */
let t: TestApp;
let receiver: Receiver;
let worker: ReturnType<typeof webhookWorker>;
const sessions: Record<string, { session: string; csrf: string }> = {};
const emails: Record<string, string> = {};
/** The storefront's endpoint (added through the page) and the registration partner's (through the API). */
let mine: string;
let theirs: string;
let theirDelivery: string;
let refusing = true;

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const page = (who: string, url: string) => getPortalPage(t, sessions[who]!.session, url);
const post = (who: string, url: string, fields: Record<string, string> = {}) =>
  postPortalForm(t, sessions[who]!.session, url, { _csrf: sessions[who]!.csrf, ...fields });
/** The 404 page without the per-session parts (CSRF tokens, who is signed in). */
const bare = (body: string) => body.replace(/value="[^"]+"/g, '').replace(/<header[\s\S]*?<\/header>/, '');

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startReceiver();
  worker = webhookWorker(t);
  const partners = await demoPartnerIds(t);
  for (const role of ['admin', 'developer', 'finance', 'read-only'] as const) {
    const user = await portalUser(t, { partnerId: partners.storefront, role });
    emails[role] = user.email;
    sessions[role] = await signInPortal(t, user);
  }
  sessions.other = await signInPortal(t, await portalUser(t, { partnerId: partners.registration, role: 'admin' }));
  // The registration partner's endpoint and one delivery to it, through the API with its own credential.
  const created = await t.post(
    '/webhook-endpoints',
    { url: `${receiver.url}/theirs`, events: ['*'] },
    { as: t.registration },
  );
  expect(created.statusCode).toBe(201);
  theirs = created.json().data.items.id;
  const test = await t.post(`/webhook-endpoints/${theirs}/test`, undefined, { as: t.registration });
  theirDelivery = test.json().data.items.deliveryId;
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

describe('who sees the webhooks pages', () => {
  it.each([
    ['admin', 200],
    ['developer', 200],
    ['finance', 403],
    ['read-only', 200],
  ])('%s: %i', async (who, status) => {
    expect((await page(who, '/portal/webhooks')).statusCode).toBe(status);
    expect((await page(who, '/portal/webhooks/events')).statusCode).toBe(status);
  });

  it('links the page in the menu only for roles that may read it', async () => {
    expect((await page('read-only', '/portal')).body).toContain('href="/portal/webhooks"');
    expect((await page('finance', '/portal')).body).not.toContain('href="/portal/webhooks"');
  });
});

describe('endpoints', () => {
  it('adds one, showing its secret once; refuses a bad URL or event with the field and why', async () => {
    expect((await post('read-only', '/portal/webhooks/add', { url: receiver.url, events: '*' })).statusCode).toBe(403);
    const bad = await post('developer', '/portal/webhooks/add', { url: 'ftp://example.com/x', events: '*' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('url:');
    const noEvents = await post('developer', '/portal/webhooks/add', { url: receiver.url });
    expect(noEvents.statusCode).toBe(400);
    expect(noEvents.body).toContain('events: choose at least one');
    const added = await post('developer', '/portal/webhooks/add', { url: receiver.url, events: '*' });
    expect(added.statusCode).toBe(201);
    expect(added.headers['cache-control']).toBe('no-store');
    const secret = /id="secret"[^>]*value="([^"]+)"/.exec(added.body)![1]!;
    expect(secret).toMatch(/^whsec_/);
    mine = /href="\/portal\/webhooks\/([0-9a-f-]{36})"/.exec(added.body)![1]!;
    const list = await page('read-only', '/portal/webhooks');
    expect(list.body).toContain(receiver.url);
    expect(list.body).not.toContain(`${receiver.url}/theirs`);
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain('Add an endpoint');
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['actor'])
      .where('action', '=', 'webhook.add')
      .where('subject', '=', mine)
      .executeTakeFirstOrThrow();
    expect(audit.actor).toBe(`portal:${emails.developer}`);
  });

  it('sends a test event, shows each attempt with the endpoint’s status, latency and answer', async () => {
    // Deliveries to this endpoint are refused until the receiver is mended (the other partner's share it).
    receiver.respondWith((_n, body) => (refusing && body.includes(mine) ? 500 : 200));
    const test = await post('developer', `/portal/webhooks/${mine}/test`);
    expect(test.statusCode).toBe(200);
    expect(test.body).toContain('A webhook.test event');
    await worker.runPending({ now: true });
    const shown = await page('read-only', `/portal/webhooks/${mine}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('webhook.test');
    expect(shown.body).toMatch(/500 in \d+ ms/);
    expect(shown.body).toContain('receiver says no (500)');
    // A reader sees no forms.
    expect(shown.body).not.toContain(`/portal/webhooks/${mine}/disable`);
  });

  it('disables (failing what was pending), enables, then resends every failed one since a time', async () => {
    const disabled = await post('admin', `/portal/webhooks/${mine}/disable`);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.body).toContain('disabled in the partner portal by');
    const refused = await post('admin', `/portal/webhooks/${mine}/test`);
    expect(refused.statusCode).toBe(409);
    expect((await post('admin', `/portal/webhooks/${mine}/enable`)).statusCode).toBe(200);
    const badTime = await post('developer', `/portal/webhooks/${mine}/resend-failed`, { since: 'yesterday' });
    expect(badTime.statusCode).toBe(400);
    expect(badTime.body).toContain('since');
    refusing = false;
    const since = new Date(t.clock.now().getTime() - 86_400_000 * 3650).toISOString();
    const resent = await post('developer', `/portal/webhooks/${mine}/resend-failed`, { since });
    expect(resent.statusCode).toBe(200);
    expect(resent.body).toContain('1 failed event(s) are queued again');
    const before = receiver.requests.length;
    await worker.runPending({ now: true });
    expect(receiver.requests.length).toBe(before + 1);
    // Nothing failed is left since then: a second press sends nothing.
    const again = await post('developer', `/portal/webhooks/${mine}/resend-failed`, { since });
    expect(again.body).toContain('No failed delivery to send again');
    const audit = await t.db.selectFrom('audit_log').select(['action', 'actor']).where('subject', '=', mine).execute();
    expect(audit).toContainEqual({ action: 'webhook.disable', actor: `portal:${emails.admin}` });
    expect(audit).toContainEqual({ action: 'webhook.replay', actor: `portal:${emails.developer}` });
  });

  it('resends one delivery as a new delivery of the same event', async () => {
    const shown = await page('developer', `/portal/webhooks/${mine}`);
    const delivery = /\/portal\/webhooks\/[0-9a-f-]{36}\/deliveries\/([0-9a-f-]{36})\/resend/.exec(shown.body)![1]!;
    const resent = await post('developer', `/portal/webhooks/${mine}/deliveries/${delivery}/resend`);
    expect(resent.statusCode).toBe(200);
    expect(resent.body).toContain('Queued again as delivery');
    const replay = await t.db
      .selectFrom('webhook_deliveries')
      .select(['id'])
      .where('replay_of', '=', delivery)
      .executeTakeFirst();
    expect(replay).toBeDefined();
    expect((await post('read-only', `/portal/webhooks/${mine}/deliveries/${delivery}/resend`)).statusCode).toBe(403);
  });

  it('rotates the secret, showing the new one once', async () => {
    expect((await post('finance', `/portal/webhooks/${mine}/rotate`)).statusCode).toBe(403);
    const rotated = await post('admin', `/portal/webhooks/${mine}/rotate`);
    expect(rotated.statusCode).toBe(201);
    expect(rotated.headers['cache-control']).toBe('no-store');
    expect(rotated.body).toMatch(/id="secret"[^>]*value="whsec_/);
    expect(rotated.body).toContain('the previous one also signs until');
  });
});

describe('the event log', () => {
  it('lists the partner’s own events by type and time, and refuses a bad time with why', async () => {
    const log = await page('read-only', '/portal/webhooks/events?type=webhook.test');
    expect(log.statusCode).toBe(200);
    expect(log.body).toContain('webhook.test');
    const theirEvent = await t.db
      .selectFrom('webhook_events')
      .select('id')
      .where('data', '@>', JSON.stringify({ endpointId: theirs }) as never)
      .executeTakeFirstOrThrow();
    expect(log.body).not.toContain(theirEvent.id);
    const future = await page('read-only', '/portal/webhooks/events?from=2099-01-01');
    expect(future.body).toContain('No events match.');
    const bad = await page('read-only', '/portal/webhooks/events?from=soon');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('from');
  });
});

describe('another partner’s endpoints and deliveries', () => {
  it.each([
    ['GET', ''],
    ['POST', '/test'],
    ['POST', '/disable'],
    ['POST', '/enable'],
    ['POST', '/rotate'],
    ['POST', '/resend-failed'],
  ])('%s …%s answers exactly like an unknown endpoint', async (method, suffix) => {
    const ask = (id: string) =>
      method === 'GET'
        ? page('admin', `/portal/webhooks/${id}${suffix}`)
        : post('admin', `/portal/webhooks/${id}${suffix}`, { since: '2026-01-01' });
    const other = await ask(theirs);
    const unknown = await ask(UNKNOWN);
    const malformed = await ask('not-an-id');
    expect(other.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(malformed.statusCode).toBe(404);
    expect(bare(other.body)).toBe(bare(unknown.body));
  });

  it('answers another partner’s delivery like an unknown one, and changes nothing of theirs', async () => {
    const viaTheirs = await post('admin', `/portal/webhooks/${theirs}/deliveries/${theirDelivery}/resend`);
    const viaMine = await post('admin', `/portal/webhooks/${mine}/deliveries/${theirDelivery}/resend`);
    const unknown = await post('admin', `/portal/webhooks/${mine}/deliveries/${UNKNOWN}/resend`);
    for (const answer of [viaTheirs, viaMine, unknown]) expect(answer.statusCode).toBe(404);
    expect(bare(viaMine.body)).toBe(bare(unknown.body));
    const endpoint = await t.db
      .selectFrom('webhook_endpoints')
      .select(['status'])
      .where('id', '=', theirs)
      .executeTakeFirstOrThrow();
    expect(endpoint.status).toBe('enabled');
    const replays = await t.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('replay_of', '=', theirDelivery)
      .execute();
    expect(replays).toEqual([]);
  });

  it('refuses a change without the session’s CSRF token', async () => {
    const response = await postPortalForm(t, sessions.admin!.session, `/portal/webhooks/${mine}/disable`, {});
    expect(response.statusCode).toBe(403);
  });
});
