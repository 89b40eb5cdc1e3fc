import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalRole } from '../../src/domain/portal-roles.js';
import { demoPartnerIds, getPortalPage, portalUser, signInPortal } from '../helpers/portal.js';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let partners: { storefront: string; registration: string };
const ours = randomUUID();
const theirs = randomUUID();
const failed = randomUUID();
const read = randomUUID();
const sessions = new Map<string, string>();

/** A signed-in user of `partner` with `role`, made once per pair. */
async function sessionOf(partner: 'storefront' | 'registration', role: PortalRole): Promise<string> {
  const key = `${partner}:${role}`;
  if (!sessions.has(key))
    sessions.set(key, (await signInPortal(t, await portalUser(t, { partnerId: partners[partner], role }))).session);
  return sessions.get(key)!;
}

const detailIdOf = async (correlationId: string) =>
  String(
    (
      await t.db
        .selectFrom('partner_requests')
        .select('id')
        .where('correlation_id', '=', correlationId)
        .executeTakeFirstOrThrow()
    ).id,
  );

beforeAll(async () => {
  t = await startTestApp();
  partners = await demoPartnerIds(t);
  expect((await t.post('/donations', donationBody(), { correlationId: ours })).statusCode).toBe(200);
  const invalid = { ...donationBody(), transaction: { amount: '-1' } };
  expect((await t.post('/donations', invalid, { correlationId: failed })).statusCode).toBe(400);
  const wrongSecret = { clientId: t.registration.clientId, clientSecret: 'wrong' };
  expect((await t.get('/ping', { as: wrongSecret, correlationId: theirs })).statusCode).toBe(401);
  expect((await t.get('/ping', { correlationId: read })).statusCode).toBe(200);
  await t.app.requestLog!.flush();
});
afterAll(() => t?.close());

describe('the portal’s Requests page', () => {
  it('lists the partner’s requests to the roles that read the request log, and refuses finance', async () => {
    for (const role of ['admin', 'developer', 'read-only'] as const) {
      const page = await getPortalPage(t, await sessionOf('storefront', role), '/portal/requests');
      expect(page.statusCode, role).toBe(200);
      expect(page.body).toContain(ours);
      expect(page.body).toContain(failed);
      expect(page.body).not.toContain(theirs);
    }
    const finance = await getPortalPage(t, await sessionOf('storefront', 'finance'), '/portal/requests');
    expect(finance.statusCode).toBe(403);
    expect(finance.body).not.toContain(ours);
    const detail = await getPortalPage(
      t,
      await sessionOf('storefront', 'finance'),
      `/portal/requests/${await detailIdOf(ours)}`,
    );
    expect(detail.statusCode).toBe(403);
  });

  it('searches by correlation id and status, and says what is wrong with a bad status', async () => {
    const session = await sessionOf('storefront', 'developer');
    const byId = await getPortalPage(t, session, `/portal/requests?correlationId=${failed}`);
    expect(byId.body).toContain(failed);
    expect(byId.body).not.toContain(ours);
    expect(byId.body).toContain('FUNDRAISER:VALIDATION');
    const fourxx = await getPortalPage(t, session, '/portal/requests?status=4xx');
    expect(fourxx.body).toContain(failed);
    expect(fourxx.body).not.toContain(ours);
    const bad = await getPortalPage(t, session, '/portal/requests?status=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('status');
  });

  it('shows one request with its masked bodies, and another partner’s as unknown', async () => {
    const session = await sessionOf('storefront', 'read-only');
    const detail = await getPortalPage(t, session, `/portal/requests/${await detailIdOf(ours)}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('[masked]');
    expect(detail.body).toContain('Storefront App');
    for (const personal of ['jo.citizen@example.com', 'Citizen', '0412', '1 Main St'])
      expect(detail.body).not.toContain(personal);
    const other = await getPortalPage(t, session, `/portal/requests/${await detailIdOf(theirs)}`);
    expect(other.statusCode).toBe(404);
    const unknown = await getPortalPage(t, session, '/portal/requests/999999999');
    expect(unknown.statusCode).toBe(404);
    expect(other.body).toBe(unknown.body.replace(/999999999/g, ''));
  });

  it('counts a successful read without listing it, and says so', async () => {
    const session = await sessionOf('storefront', 'developer');
    const page = await getPortalPage(t, session, '/portal/requests');
    expect(page.body).not.toContain(read);
    expect(page.body).toContain('successful reads (GET) are counted');
    const counted = await t.db
      .selectFrom('partner_request_counts')
      .select((eb) => eb.fn.sum<string>('requests').as('n'))
      .where('partner_id', '=', partners.storefront)
      .where('route', '=', `${t.config.BASE_PATH}/ping`)
      .where('status', '=', 200)
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(1);
  });

  it('shows the registration partner only its own', async () => {
    const page = await getPortalPage(t, await sessionOf('registration', 'developer'), '/portal/requests');
    expect(page.body).toContain(theirs);
    expect(page.body).not.toContain(ours);
  });
});

describe('the portal’s Usage page', () => {
  it('shows every role that reads usage its partner’s figures as charts, with the quota', async () => {
    for (const role of ['admin', 'developer', 'finance', 'read-only'] as const) {
      const page = await getPortalPage(t, await sessionOf('storefront', role), '/portal/usage');
      expect(page.statusCode, role).toBe(200);
      expect(page.body).toContain('<svg');
      expect(page.body).toContain('Used in this window');
      expect(page.body).toContain('POST /v1/donations');
    }
  });

  it('counts only the partner’s own requests', async () => {
    const page = await getPortalPage(t, await sessionOf('registration', 'read-only'), '/portal/usage');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('POST /v1/donations');
  });
});
