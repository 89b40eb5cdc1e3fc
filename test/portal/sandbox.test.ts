import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPartnerIds, getPortalPage, portalUser, postPortalForm, signInPortal } from '../helpers/portal.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { give, settle } from '../receipts/donations.js';
import { donation } from '../reversals/support.js';
import { noPaymentProvider, PRODUCTION_ENV } from '../webhooks/support.js';

/**
 * The portal's Sandbox page: the clock and its advance (the API's service and limits), the test accounts, a
 * donation's sample receipts and their PDF; each role; another partner's donation like an unknown one; not served
 * in production.
 */
let t: TestApp;
const sessions: Record<string, { session: string; csrf: string }> = {};
const emails: Record<string, string> = {};
let reference: string;
let theirs: string;

const page = (who: string, url: string) => getPortalPage(t, sessions[who]!.session, url);
const post = (who: string, url: string, fields: Record<string, string> = {}) =>
  postPortalForm(t, sessions[who]!.session, url, { _csrf: sessions[who]!.csrf, ...fields });
const bare = (body: string) => body.replace(/value="[^"]+"/g, '').replace(/<header[\s\S]*?<\/header>/, '');

beforeAll(async () => {
  t = await startTestApp();
  const partners = await demoPartnerIds(t);
  for (const role of ['admin', 'developer', 'finance', 'read-only'] as const) {
    const user = await portalUser(t, { partnerId: partners.storefront, role });
    emails[role] = user.email;
    sessions[role] = await signInPortal(t, user);
  }
  reference = await give(t, '20.50', { email: 'sandbox.donor@example.com' });
  await settle(t, [{ id: reference, amount: 20.5 }]);
  theirs = await donation(t, '5.00', 'registration');
});
afterAll(() => t?.close());

describe('the sandbox page', () => {
  it.each([
    ['admin', 200],
    ['developer', 200],
    ['finance', 403],
    ['read-only', 200],
  ])('%s: %i', async (who, status) => {
    expect((await page(who, '/portal/sandbox')).statusCode).toBe(status);
    expect((await page(who, `/portal/sandbox/receipts?donation=${reference}`)).statusCode).toBe(status);
  });

  it('shows the clock and the test accounts; a reader has no advance form', async () => {
    const shown = await page('read-only', '/portal/sandbox');
    expect(shown.body).toContain('Sandbox time');
    expect(shown.body).toContain('10000001');
    expect(shown.body).toContain('Riverside Junior Football Club');
    expect(shown.body).not.toContain('/portal/sandbox/clock/advance');
    expect((await post('read-only', '/portal/sandbox/clock/advance', { duration: 'P1D' })).statusCode).toBe(403);
  });

  it('advances the clock with the API’s limits, audited with the person', async () => {
    const bad = await post('developer', '/portal/sandbox/clock/advance', { duration: 'a month' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('duration: must be an ISO 8601 duration');
    const tooFar = await post('developer', '/portal/sandbox/clock/advance', { duration: 'P6Y' });
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.body).toContain('at most 5 years');
    const moved = await post('developer', '/portal/sandbox/clock/advance', { duration: 'P1D' });
    expect(moved.statusCode).toBe(200);
    expect(moved.body).toContain('Your sandbox clock is now');
    const api = await t.get('/sandbox/clock');
    expect(api.json().data.items.aheadBySeconds).toBeGreaterThanOrEqual(86_400 - 1);
    const entry = await t.db
      .selectFrom('audit_log')
      .select(['actor'])
      .where('action', '=', 'sandbox.clock_advance')
      .executeTakeFirstOrThrow();
    expect(entry.actor).toBe(`portal:${emails.developer}`);
  });

  it('shows a settled donation’s sample receipt and serves its PDF', async () => {
    const shown = await page('read-only', `/portal/sandbox/receipts?donation=${reference}`);
    expect(shown.body).toContain('in force');
    const link = /href="(\/portal\/sandbox\/receipts\/[^"]+\/attachments\/0)"/.exec(shown.body)![1]!;
    const pdf = await page('read-only', link.replace(/&amp;/g, '&'));
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('answers another partner’s donation exactly like an unknown one', async () => {
    const other = await page('admin', `/portal/sandbox/receipts?donation=${theirs}`);
    const unknown = await page('admin', '/portal/sandbox/receipts?donation=DON-NOSUCHDONATION');
    expect(other.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(bare(other.body).replace(theirs, 'X')).toBe(bare(unknown.body).replace('DON-NOSUCHDONATION', 'X'));
    const file = await page('admin', `/portal/sandbox/receipts/${theirs}/messages/0/attachments/0`);
    const none = await page('admin', '/portal/sandbox/receipts/DON-NOSUCHDONATION/messages/0/attachments/0');
    expect(file.statusCode).toBe(404);
    expect(bare(file.body)).toBe(bare(none.body));
  });
});

describe('in production', () => {
  it('serves no sandbox page', async () => {
    const prod = await startTestApp({
      env: { ...PRODUCTION_ENV, PORTAL_ENABLED: 'true' },
      deps: { payments: noPaymentProvider },
    });
    try {
      const partners = await demoPartnerIds(prod);
      const user = await portalUser(prod, { partnerId: partners.storefront, role: 'admin' });
      const { session } = await signInPortal(prod, user);
      const shown = await getPortalPage(prod, session, '/portal/sandbox');
      expect(shown.statusCode).toBe(404);
      expect((await getPortalPage(prod, session, '/portal')).body).not.toContain('/portal/sandbox');
    } finally {
      await prod.close();
    }
  });
});
