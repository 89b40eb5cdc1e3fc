import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createOperator, getPage, postForm, signIn } from './support.js';

let t: TestApp;
let partnerId: string;
beforeAll(async () => {
  t = await startTestApp();
  await createOperator(t, 'admin@foundation.example', 'admin');
  await createOperator(t, 'viewer@foundation.example', 'viewer');
  partnerId = (
    await t.db.selectFrom('partners').select('id').where('name', 'like', '%Storefront%').executeTakeFirstOrThrow()
  ).id;
}, 180_000);
afterAll(async () => t?.close(), 60_000);

describe('a partner’s contacts in the console', () => {
  it('lets an admin add and remove a contact, shows them to a viewer, and refuses the viewer’s changes', async () => {
    const admin = await signIn(t, 'admin@foundation.example', `/console/partners/${partnerId}`);
    const added = await postForm(t, admin.session, `/console/partners/${partnerId}/contacts`, {
      _csrf: admin.csrf,
      role: 'technical',
      name: 'Tech Lead',
      email: 'tech@partner.example',
    });
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe(`/console/partners/${partnerId}?done=contact-added`);

    const viewer = await signIn(t, 'viewer@foundation.example', `/console/partners/${partnerId}`);
    const page = await getPage(t, viewer.session, `/console/partners/${partnerId}`);
    expect(page.body).toContain('tech@partner.example');
    expect(page.body).not.toContain('Add a contact');
    const refused = await postForm(t, viewer.session, `/console/partners/${partnerId}/contacts`, {
      _csrf: viewer.csrf,
      role: 'finance',
      name: 'X',
      email: 'x@partner.example',
    });
    expect(refused.statusCode).toBe(403);

    const invalid = await postForm(t, admin.session, `/console/partners/${partnerId}/contacts`, {
      _csrf: admin.csrf,
      role: 'finance',
      name: 'Fin',
      email: 'not an address',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('email must be an e-mail address');

    const contactId = /contacts\/([0-9a-f-]{36})\/remove/.exec(
      (await getPage(t, admin.session, `/console/partners/${partnerId}`)).body,
    )![1]!;
    const removed = await postForm(t, admin.session, `/console/partners/${partnerId}/contacts/${contactId}/remove`, {
      _csrf: admin.csrf,
    });
    expect(removed.statusCode).toBe(303);
    expect((await getPage(t, admin.session, `/console/partners/${partnerId}`)).body).not.toContain(
      'tech@partner.example',
    );
  });
});
