import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { give } from '../receipts/donations.js';
import { uniqueEmail } from '../privacy/support.js';
import { createOperator, getPage, postForm, signIn } from './support.js';

/** The console's Privacy page (docs/privacy.md): progress, erasures waiting for a second admin, the access archive. */
const ALICE = 'alice@foundation.example';
const BOB = 'bob@foundation.example';
const VIEWER = 'viewer@foundation.example';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await createOperator(t, ALICE, 'admin');
  await createOperator(t, BOB, 'admin');
  await createOperator(t, VIEWER, 'viewer');
}, 180_000);
afterAll(() => t?.close());

describe('the Privacy page', () => {
  it('lists a pending erasure; its requester gets no button, another admin approves it', async () => {
    const email = uniqueEmail('console');
    const ref = await give(t, '9.00', { email });
    const asked = await cli({ database: t.database, operator: ALICE })(
      'privacy',
      'erase',
      '--email',
      email,
      '--reason',
      'asked',
      '--json',
    );
    expect(asked.code, asked.stderr).toBe(0);
    const id = asked.json().id as string;

    const alice = await signIn(t, ALICE, '/console/privacy');
    const own = await getPage(t, alice.session, '/console/privacy');
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain(id);
    expect(own.body).not.toContain(`/console/privacy/erasures/${id}/approve`);
    const refused = await postForm(t, alice.session, `/console/privacy/erasures/${id}/approve`, { _csrf: alice.csrf });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('another operator must approve it');

    const bob = await signIn(t, BOB, '/console/privacy');
    expect((await getPage(t, bob.session, '/console/privacy')).body).toContain(
      `/console/privacy/erasures/${id}/approve`,
    );
    const done = await postForm(t, bob.session, `/console/privacy/erasures/${id}/approve`, { _csrf: bob.csrf });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(`Erasure ${id} is done`);
    const row = await t.db
      .selectFrom('donations')
      .select('donor_email')
      .where('reference_id', '=', ref)
      .executeTakeFirstOrThrow();
    expect(row.donor_email).toBe('');
  });

  it('downloads an access archive for an admin, not for a viewer', async () => {
    const email = uniqueEmail('archive');
    const ref = await give(t, '11.00', { email });
    const bob = await signIn(t, BOB, '/console/privacy');
    const archive = await postForm(t, bob.session, '/console/privacy/export', { _csrf: bob.csrf, email });
    expect(archive.statusCode).toBe(200);
    expect(archive.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(archive.rawPayload));
    expect(strFromU8(files['donations.json']!)).toContain(ref);

    const viewer = await signIn(t, VIEWER, '/console/privacy');
    const page = await getPage(t, viewer.session, '/console/privacy');
    expect(page.body).not.toContain('/console/privacy/export');
    const refused = await postForm(t, viewer.session, '/console/privacy/export', { _csrf: viewer.csrf, email });
    expect(refused.statusCode).toBe(403);
  });
});
