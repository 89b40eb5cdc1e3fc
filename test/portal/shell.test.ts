import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPartnerIds, getPortalPage, portalUser, postPortalForm, signInPortal } from '../helpers/portal.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let partners: { storefront: string; registration: string };

beforeAll(async () => {
  t = await startTestApp();
  partners = await demoPartnerIds(t);
});
afterAll(() => t.close());

describe('the portal shell', () => {
  it('sends a visitor without a session to sign in, with the portal policy and no API envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/portal?x=1' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/portal/sign-in?next=%2Fportal%3Fx%3D1');
    const form = await t.app.inject({ method: 'GET', url: '/portal/sign-in' });
    expect(form.statusCode).toBe(200);
    expect(form.headers['content-security-policy']).toContain("form-action 'self'");
    expect(form.headers['content-security-policy']).not.toContain('data:');
    const cookie = form.cookies.find((c) => c.name === 'portal_signin_csrf')!;
    expect(cookie.path).toBe('/portal');
  });

  it('signs in with a password and a TOTP code, shows the partner, and signs out', async () => {
    const user = await portalUser(t, { partnerId: partners.storefront, role: 'developer' });
    const { session, csrf } = await signInPortal(t, user);
    const overview = await getPortalPage(t, session, '/portal');
    expect(overview.statusCode).toBe(200);
    expect(overview.body).toContain('Storefront');
    expect(overview.body).toContain(user.email);
    const out = await postPortalForm(t, session, '/portal/sign-out', { _csrf: csrf });
    expect(out.statusCode).toBe(303);
    expect((await getPortalPage(t, session, '/portal')).statusCode).toBe(303);
  });

  it('accepts each TOTP step once, then the recovery codes', async () => {
    const user = await portalUser(t, { partnerId: partners.registration, role: 'read-only' });
    await signInPortal(t, user);
    await signInPortal(t, user);
    await signInPortal(t, user);
    // A fourth sign-in in the same 30 s uses a recovery code: TOTP steps are each accepted once.
    await signInPortal(t, user);
  });

  it('answers an unknown address with the portal’s 404 page, signed in or not', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/portal/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('There is no such page in the portal.');
  });
});
