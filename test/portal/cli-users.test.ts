import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { demoPartnerIds, portalUser } from '../helpers/portal.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let partners: { storefront: string; registration: string };

beforeAll(async () => {
  t = await startTestApp();
  partners = await demoPartnerIds(t);
});
afterAll(() => t.close());

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    database: t.database,
    env: {},
    defaultOperator: () => 'ada@foundation.example',
    readStdin: async () => '',
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

describe('fundraiser-admin partners users', () => {
  it('invites, lists, changes a role and removes, each audited with the operator', async () => {
    const invited = await cli([
      'partners',
      'users',
      'invite',
      partners.storefront,
      '--email',
      'ops.invite@partner.example',
      '--role',
      'developer',
      '--json',
    ]);
    expect(invited.code).toBe(0);
    const user = JSON.parse(invited.stdout);
    expect(user).toMatchObject({ email: 'ops.invite@partner.example', role: 'developer', status: 'invited' });
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('recipient', '=', 'ops.invite@partner.example')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toMatch(/\/portal\/invitation\/[A-Za-z0-9_-]{40,}/);
    const listed = await cli(['partners', 'users', 'list', partners.storefront, '--json']);
    expect(JSON.parse(listed.stdout).map((u: { email: string }) => u.email)).toContain('ops.invite@partner.example');
    expect((await cli(['partners', 'users', 'role', partners.storefront, user.id, '--role', 'finance'])).code).toBe(0);
    expect((await cli(['partners', 'users', 'remove', partners.storefront, user.id])).code).toBe(0);
    const actions = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor'])
      .where('action', 'like', 'portal.user_%')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['portal.user_invite', 'portal.user_role', 'portal.user_remove']);
    expect(new Set(actions.map((a) => a.actor))).toEqual(new Set(['ada@foundation.example']));
  });

  it('does not find one partner’s user under another partner', async () => {
    const user = await portalUser(t, { partnerId: partners.registration, role: 'admin' });
    const response = await cli(['partners', 'users', 'remove', partners.storefront, user.id]);
    expect(response.code).not.toBe(0);
    expect(response.stderr).toContain('There is no such user.');
  });

  it('refuses a role that does not exist', async () => {
    const response = await cli([
      'partners',
      'users',
      'invite',
      partners.storefront,
      '--email',
      'x@partner.example',
      '--role',
      'owner',
    ]);
    expect(response.code).not.toBe(0);
  });
});
