import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoPartnerIds,
  getPortalPage,
  portalUser,
  postPortalForm,
  signInPortal,
  totpCode,
} from '../helpers/portal.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let partnerId: string;

beforeAll(async () => {
  t = await startTestApp({
    env: { PORTAL_SIGNIN_FAILURES_PER_ADDRESS: '3', PORTAL_SESSION_IDLE_MINUTES: '30', PORTAL_SESSION_MAX_HOURS: '2' },
  });
  partnerId = (await demoPartnerIds(t)).storefront;
});
afterAll(() => t.close());

const csrfOf = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)![1]!;

async function passwordStep(email: string, password: string, remoteAddress: string) {
  const form = await t.app.inject({ method: 'GET', url: '/portal/sign-in', remoteAddress });
  const cookie = form.cookies.find((c) => c.name === 'portal_signin_csrf')!.value;
  return t.app.inject({
    method: 'POST',
    url: '/portal/sign-in',
    remoteAddress,
    cookies: { portal_signin_csrf: cookie },
    payload: new URLSearchParams({ _csrf: csrfOf(form.body), email, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

describe('portal sign-in', () => {
  it('throttles an address after failures, never the account: the user signs in from elsewhere', async () => {
    const user = await portalUser(t, { partnerId, role: 'developer' });
    for (let i = 0; i < 3; i++)
      expect((await passwordStep(user.email, 'wrong password', '203.0.113.9')).statusCode).toBe(401);
    const refused = await passwordStep(user.email, user.password, '203.0.113.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await passwordStep(user.email, user.password, '198.51.100.7')).statusCode).toBe(303);
  });

  it('refuses a wrong or replayed code, and accepts a recovery code once, audited', async () => {
    const user = await portalUser(t, { partnerId, role: 'finance' });
    const first = await passwordStep(user.email, user.password, '192.0.2.1');
    const pending = first.cookies.find((c) => c.name === 'portal_pending')!.value;
    const form = await t.app.inject({
      method: 'GET',
      url: '/portal/sign-in/code',
      cookies: { portal_pending: pending },
    });
    const send = (code: string) =>
      postPortalForm(t, '', '/portal/sign-in/code', { _csrf: csrfOf(form.body), code }, { portal_pending: pending });
    expect((await send('000000')).statusCode).toBe(401);
    expect((await send(user.recoveryCodes[0]!.toUpperCase())).statusCode).toBe(303);
    const entries = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('actor', '=', `portal:${user.email}`)
      .execute();
    expect(entries.map((e) => e.action).sort()).toEqual(['portal.recovery_code_used', 'portal.sign_in']);
    // The same recovery code, and the TOTP code of a step already used, are refused.
    const again = await passwordStep(user.email, user.password, '192.0.2.1');
    const pending2 = again.cookies.find((c) => c.name === 'portal_pending')!.value;
    const form2 = await t.app.inject({
      method: 'GET',
      url: '/portal/sign-in/code',
      cookies: { portal_pending: pending2 },
    });
    const send2 = (code: string) =>
      postPortalForm(t, '', '/portal/sign-in/code', { _csrf: csrfOf(form2.body), code }, { portal_pending: pending2 });
    expect((await send2(user.recoveryCodes[0]!)).statusCode).toBe(401);
    const signedIn = await send2(totpCode(user.totpSecret, t.clock.now()));
    expect(signedIn.headers.location).toBe('/portal');
    // The half session became a session: the code form is spent.
    expect((await send2(totpCode(user.totpSecret, t.clock.now()))).headers.location).toBe('/portal/sign-in');
  });

  it('ends a session when idle and at its absolute expiry', async () => {
    const user = await portalUser(t, { partnerId, role: 'read-only' });
    const idle = await signInPortal(t, user);
    t.clock.advance(31 * 60_000);
    expect((await getPortalPage(t, idle.session, '/portal')).statusCode).toBe(303);
    const busy = await signInPortal(t, user);
    // Used every 25 minutes (within the idle time) it lives until its 2 hours are over.
    for (let i = 0; i < 4; i++) {
      t.clock.advance(25 * 60_000);
      expect((await getPortalPage(t, busy.session, '/portal')).statusCode).toBe(200);
    }
    t.clock.advance(25 * 60_000);
    expect((await getPortalPage(t, busy.session, '/portal')).statusCode).toBe(303);
  });
});
