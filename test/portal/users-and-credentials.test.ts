import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteUser, portalUserSettings } from '../../src/services/portal/users.js';
import {
  demoPartnerIds,
  getPortalPage,
  portalUser,
  postPortalForm,
  signInPortal,
  totpCode,
  type PortalTestUser,
} from '../helpers/portal.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let partners: { storefront: string; registration: string };
const users: Record<string, PortalTestUser> = {};
const sessions: Record<string, { session: string; csrf: string }> = {};

beforeAll(async () => {
  t = await startTestApp();
  partners = await demoPartnerIds(t);
  for (const role of ['admin', 'developer', 'finance', 'read-only'] as const) {
    users[role] = await portalUser(t, { partnerId: partners.storefront, role });
    sessions[role] = await signInPortal(t, users[role]);
  }
  users.other = await portalUser(t, { partnerId: partners.registration, role: 'admin' });
  sessions.other = await signInPortal(t, users.other);
});
afterAll(() => t.close());

const page = (who: string, url: string) => getPortalPage(t, sessions[who]!.session, url);
const post = (who: string, url: string, fields: Record<string, string> = {}) =>
  postPortalForm(t, sessions[who]!.session, url, { _csrf: sessions[who]!.csrf, ...fields });

describe('the pages each role may see', () => {
  it.each([
    ['admin', 200, 200],
    ['developer', 200, 403],
    ['finance', 403, 403],
    ['read-only', 200, 403],
  ])('%s: credentials %i, users %i; the overview always', async (who, credentials, usersStatus) => {
    expect((await page(who, '/portal')).statusCode).toBe(200);
    expect((await page(who, '/portal/credentials')).statusCode).toBe(credentials);
    expect((await page(who, '/portal/users')).statusCode).toBe(usersStatus);
  });

  it('shows only the session partner’s credentials and users', async () => {
    const mine = await page('admin', '/portal/credentials');
    expect(mine.body).toContain(t.storefront.clientId);
    expect(mine.body).not.toContain(t.registration.clientId);
    const team = await page('admin', '/portal/users');
    expect(team.body).toContain(users.developer!.email);
    expect(team.body).not.toContain(users.other!.email);
  });
});

describe('credentials', () => {
  it('rotates the partner’s own pair once, showing the secret once; read-only may not', async () => {
    expect((await post('read-only', `/portal/credentials/${t.storefront.clientId}/rotate`)).statusCode).toBe(403);
    const rotated = await post('developer', `/portal/credentials/${t.storefront.clientId}/rotate`);
    expect(rotated.statusCode).toBe(201);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const secret = /id="secret"[^>]*value="([^"]+)"/.exec(rotated.body)?.[1];
    expect(secret).toMatch(/^[A-Z0-9]{40,}$/);
    expect((await page('developer', '/portal/credentials')).body).not.toContain(secret!);
    const again = await post('admin', `/portal/credentials/${t.storefront.clientId}/rotate`);
    expect(again.statusCode).toBe(409);
    const entry = await t.db
      .selectFrom('audit_log')
      .select(['actor'])
      .where('action', '=', 'credential.rotate')
      .where('subject', '=', t.storefront.clientId)
      .executeTakeFirstOrThrow();
    expect(entry.actor).toBe(`portal:${users.developer!.email}`);
  });

  it('answers another partner’s credential exactly like an unknown one', async () => {
    const other = await post('admin', `/portal/credentials/${t.registration.clientId}/rotate`);
    const unknown = await post('admin', '/portal/credentials/sit_nosuchcredential000/rotate');
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(unknown.body);
  });
});

describe('users', () => {
  it('invites by mail; the link sets a password and a TOTP app, then the user signs in', async () => {
    const invited = await post('admin', '/portal/users/invite', {
      email: 'New.Person@partner.example',
      role: 'finance',
    });
    expect(invited.statusCode).toBe(200);
    expect(invited.body).toContain('Invitation sent to new.person@partner.example');
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['text_body', 'kind'])
      .where('recipient', '=', 'new.person@partner.example')
      .executeTakeFirstOrThrow();
    const link = /https?:\/\/[^\s]+\/portal\/invitation\/([A-Za-z0-9_-]+)/.exec(mail.text_body!)!;
    const path = `/portal/invitation/${link[1]}`;
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    const weak = await postPortalForm(
      t,
      '',
      `${path}/password`,
      { password: 'password1234', confirm: 'password1234' },
      {},
    );
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('too easy to guess');
    const set = await postPortalForm(
      t,
      '',
      `${path}/password`,
      { password: 'violet anchor 97 thimble', confirm: 'violet anchor 97 thimble' },
      {},
    );
    expect(set.statusCode).toBe(303);
    const enrol = await t.app.inject({ method: 'GET', url: path });
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(enrol.body)![1]!;
    expect(enrol.body).toContain('otpauth://totp/');
    expect(enrol.body).toContain('<svg role="img"');
    const done = await postPortalForm(t, '', `${path}/enrol`, { code: totpCode(secret, t.clock.now()) }, {});
    expect(done.statusCode).toBe(200);
    const codes = [...done.body.matchAll(/<li>([a-z2-9]{4}(?:-[a-z2-9]{4}){3})<\/li>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    const row = await t.db
      .selectFrom('portal_users')
      .selectAll()
      .where('email', '=', 'new.person@partner.example')
      .executeTakeFirstOrThrow();
    const person: PortalTestUser = {
      id: row.id,
      email: row.email,
      password: 'violet anchor 97 thimble',
      role: 'finance',
      partnerId: partners.storefront,
      totpSecret: secret,
      recoveryCodes: codes,
      // The enrolment used the current step: the next sign-in uses the next one.
      signIns: 2,
    };
    const signedIn = await signInPortal(t, person);
    expect((await getPortalPage(t, signedIn.session, '/portal')).body).toContain('finance');
  });

  it('changes a role and removes a user, ending their sessions; never another partner’s user', async () => {
    const target = await portalUser(t, { partnerId: partners.storefront, role: 'read-only' });
    const theirs = await signInPortal(t, target);
    const changed = await post('admin', `/portal/users/${target.id}/role`, { role: 'developer' });
    expect(changed.statusCode).toBe(200);
    expect((await getPortalPage(t, theirs.session, '/portal')).statusCode).toBe(303);
    const removed = await post('admin', `/portal/users/${target.id}/remove`);
    expect(removed.statusCode).toBe(200);
    const other = await post('admin', `/portal/users/${users.other!.id}/remove`);
    const unknown = await post('admin', '/portal/users/00000000-0000-4000-8000-000000000000/remove');
    expect(other.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(other.body.replace(/value="[^"]+"/g, '')).toBe(unknown.body.replace(/value="[^"]+"/g, ''));
    expect((await page('other', '/portal')).statusCode).toBe(200);
    expect((await post('developer', `/portal/users/${users.finance!.id}/remove`)).statusCode).toBe(403);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['actor', 'action'])
      .where('action', 'like', 'portal.user_%')
      .execute();
    expect(audit).toContainEqual({ actor: `portal:${users.admin!.email}`, action: 'portal.user_remove' });
  });

  it('refuses a form without the session’s CSRF token', async () => {
    const response = await postPortalForm(t, sessions.admin!.session, '/portal/users/invite', {
      email: 'x@partner.example',
      role: 'admin',
    });
    expect(response.statusCode).toBe(403);
  });

  it('lets an operator invite through the service, and refuses an address another partner holds', async () => {
    const ops = { db: t.db, now: t.clock.now, operator: 'ada@foundation.example' };
    await expect(
      inviteUser(
        ops,
        portalUserSettings(t.config),
        { id: partners.registration, name: 'Registration' },
        { email: users.admin!.email, role: 'admin' },
      ),
    ).rejects.toThrow('cannot be invited');
  });
});
