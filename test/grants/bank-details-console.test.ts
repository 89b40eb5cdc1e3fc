import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ok, type Cli } from '../cli/harness.js';
import { createOperator, getPage, postForm, signIn } from '../console/support.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createClubs } from './fixtures.js';

let t: TestApp;
let desk: Cli;
let admin: { session: string; csrf: string };
let second: { session: string; csrf: string };
let viewer: { session: string; csrf: string };
beforeAll(async () => {
  t = await startTestApp();
  desk = cli({ database: t.database, now: t.clock.now, operator: 'data-desk' });
  await createClubs(desk, [
    ['50000001', 'Console Club'],
    ['50000002', 'Queue Club'],
  ]);
  await createOperator(t, 'ada@foundation.example', 'admin');
  await createOperator(t, 'bea@foundation.example', 'admin');
  await createOperator(t, 'vic@foundation.example', 'viewer');
  admin = await signIn(t, 'ada@foundation.example');
  second = await signIn(t, 'bea@foundation.example');
  viewer = await signIn(t, 'vic@foundation.example');
}, 180_000);
afterAll(async () => t?.close(), 60_000);

const CLUB = '/console/accounts/50000001/bank';
const views = async (actor: string) =>
  (
    await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'club.bank_details_view')
      .where('actor', '=', actor)
      .execute()
  ).length;

describe('a club’s bank details page', () => {
  it('lets an admin add contacts, set GST and enter details, told to the contacts; linked from the account page', async () => {
    const account = await getPage(t, admin.session, '/console/accounts/50000001');
    expect(account.body).toContain('href="/console/accounts/50000001/bank"');

    const added = await postForm(t, admin.session, `${CLUB}/contacts`, {
      _csrf: admin.csrf,
      role: 'finance',
      name: 'Fran',
      email: 'fran@console.example',
    });
    expect(added.statusCode).toBe(200);
    expect(added.body).toContain('Fran is a finance contact of the club.');
    const gst = await postForm(t, admin.session, `${CLUB}/gst`, { _csrf: admin.csrf, registered: 'yes' });
    expect(gst.body).toContain('Console Club is registered for GST.');

    const bad = await postForm(t, admin.session, CLUB, {
      _csrf: admin.csrf,
      bsb: '06-2000',
      accountNumber: '12345678',
      accountName: 'Console Club',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('BSB &#34;06-2000&#34; must be six digits');

    const entered = await postForm(t, admin.session, CLUB, {
      _csrf: admin.csrf,
      bsb: '062000',
      accountNumber: '87654321',
      accountName: 'Console Club',
    });
    expect(entered.statusCode).toBe(200);
    expect(entered.body).toContain('Told of the change: fran@console.example.');
    const source = await t.db.selectFrom('club_bank_details').select('source').executeTakeFirstOrThrow();
    expect(source.source).toBe('console');
  });

  it('shows an admin the number whole (audited) and a viewer masked (not audited), who cannot change anything', async () => {
    const before = await views('ada@foundation.example');
    const adminPage = await getPage(t, admin.session, CLUB);
    expect(adminPage.body).toContain('87654321');
    expect(adminPage.body).toContain('Registered for GST');
    expect(adminPage.body).toContain('fran@console.example');
    expect(adminPage.body).toMatch(/payable from \d{4}-\d{2}-\d{2}T[\d:]+Z once verified/);
    expect(await views('ada@foundation.example')).toBe(before + 1);

    const viewerPage = await getPage(t, viewer.session, CLUB);
    expect(viewerPage.statusCode).toBe(200);
    expect(viewerPage.body).toContain('•••••321');
    expect(viewerPage.body).not.toContain('87654321');
    expect(viewerPage.body).not.toContain('Enter new bank details');
    expect(viewerPage.body).toContain('Your role (viewer) can read but not change');
    expect(await views('vic@foundation.example')).toBe(0);
    const refused = await postForm(t, viewer.session, `${CLUB}/gst`, { _csrf: viewer.csrf, registered: 'no' });
    expect(refused.statusCode).toBe(403);
  });
});

describe('the pending bank changes page', () => {
  it('refuses the enterer, lets a second admin verify, and shows a viewer the list without forms', async () => {
    await ok(
      desk,
      'grants',
      'bank-set',
      '--account',
      '50000002',
      '--bsb',
      '062-000',
      '--number',
      '5556667',
      '--name',
      'Queue',
    );
    const listed = await getPage(t, viewer.session, '/console/grants/bank-changes');
    expect(listed.body).toContain('Queue Club (50000002)');
    expect(listed.body).toContain('••••667');
    expect(listed.body).not.toContain('5556667');
    expect(listed.body).not.toContain('name="confirmation"');

    const own = await postForm(t, admin.session, '/console/grants/bank-changes/50000001/verify', {
      _csrf: admin.csrf,
      confirmation: 'Called Fran on file',
    });
    expect(own.statusCode).toBe(409);
    expect(own.body).toContain('cannot verify a change they entered');
    const ownReject = await postForm(t, admin.session, '/console/grants/bank-changes/50000001/reject', {
      _csrf: admin.csrf,
      reason: 'mine',
    });
    expect(ownReject.statusCode).toBe(409);

    const verified = await postForm(t, second.session, '/console/grants/bank-changes/50000001/verify', {
      _csrf: second.csrf,
      confirmation: 'Called Fran on 02 9000 0000 (on file)',
      waiveHold: 'yes',
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.body).toContain('The bank details of Console Club are verified: payable now (hold waived).');
    const rejected = await postForm(t, second.session, '/console/grants/bank-changes/50000002/reject', {
      _csrf: second.csrf,
      reason: 'The club never asked',
    });
    expect(rejected.body).toContain('The pending bank change of Queue Club is rejected');
    expect(rejected.body).toContain('No bank change is waiting.');
    const byViewer = await postForm(t, viewer.session, '/console/grants/bank-changes/50000002/reject', {
      _csrf: viewer.csrf,
      reason: 'x',
    });
    expect(byViewer.statusCode).toBe(403);
  });
});
