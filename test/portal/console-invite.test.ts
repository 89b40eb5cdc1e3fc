import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, getPage, postForm, signIn } from '../console/support.js';
import { demoPartnerIds } from '../helpers/portal.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await createOperator(t, 'ada@foundation.example', 'admin');
  await createOperator(t, 'vic@foundation.example', 'viewer');
});
afterAll(() => t.close());

describe('inviting a partner’s people from the console', () => {
  it('lets an admin invite from the partner’s page; the page lists the user', async () => {
    const { storefront } = await demoPartnerIds(t);
    const { session, csrf } = await signIn(t, 'ada@foundation.example', `/console/partners/${storefront}`);
    const invited = await postForm(t, session, `/console/partners/${storefront}/portal-users`, {
      _csrf: csrf,
      email: 'first.admin@partner.example',
      role: 'admin',
    });
    expect(invited.statusCode).toBe(303);
    const shown = await getPage(t, session, `/console/partners/${storefront}?done=portal-user-invited`);
    expect(shown.body).toContain('first.admin@partner.example');
    expect(shown.body).toContain('Invitation to the partner portal sent.');
    const entry = await t.db
      .selectFrom('audit_log')
      .select('actor')
      .where('action', '=', 'portal.user_invite')
      .executeTakeFirstOrThrow();
    expect(entry.actor).toBe('ada@foundation.example');
    const bad = await postForm(t, session, `/console/partners/${storefront}/portal-users`, {
      _csrf: csrf,
      email: 'nope',
      role: 'admin',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a viewer', async () => {
    const { storefront } = await demoPartnerIds(t);
    const { session, csrf } = await signIn(t, 'vic@foundation.example', `/console/partners/${storefront}`);
    const response = await postForm(t, session, `/console/partners/${storefront}/portal-users`, {
      _csrf: csrf,
      email: 'x@partner.example',
      role: 'admin',
    });
    expect(response.statusCode).toBe(403);
  });
});
