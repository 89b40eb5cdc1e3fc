import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateIn } from '../../src/domain/calendar-date.js';
import { cli, ok } from '../cli/harness.js';
import { createOperator, getPage, postForm, signIn } from '../console/support.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { accountIdOf, CLUB, settledDonations, tomorrow, verifiedDetails } from './support.js';

const ALICE = 'alice@example.org';
const BOB = 'bob@example.org';
const VICTOR = 'victor@example.org';

/** The grants' console pages over HTTP: rounds, one round's decisions (four eyes), a club's grants, acquittals. */
describe('grants in the console', () => {
  let t: TestApp;
  let alice: { session: string; csrf: string };
  let bob: { session: string; csrf: string };
  let victor: { session: string; csrf: string };
  beforeAll(async () => {
    t = await startTestApp();
    await createOperator(t, ALICE, 'admin');
    await createOperator(t, BOB, 'admin');
    await createOperator(t, VICTOR, 'viewer');
    await verifiedDetails(t.db, CLUB.storefront, { bsb: '062-111', account: '11110001' });
    const accountId = await accountIdOf(t.db, CLUB.storefront);
    await t.db
      .insertInto('club_contacts')
      .values({ account_id: accountId, role: 'finance', name: 'Treasurer', email: 'treasurer@riverside.test' })
      .execute();
    await settledDonations(t, [30, 20.5]);
    await ok(cli({ database: t.database }), 'grants', 'draft', '--cutoff', tomorrow(t), '--operator', ALICE);
    alice = await signIn(t, ALICE, '/console/grants/rounds/1');
    bob = await signIn(t, BOB, '/console/grants/rounds/1');
    victor = await signIn(t, VICTOR, '/console/grants/rounds/1');
  });
  afterAll(() => t?.close());

  const post = (who: { session: string; csrf: string }, url: string, fields: Record<string, string> = {}) =>
    postForm(t, who.session, url, { _csrf: who.csrf, ...fields });

  it("shows what clubs are owed and the next round's date on the dashboard", async () => {
    await settledDonations(t, [12.25], 'registration');
    const page = await getPage(t, alice.session, '/console');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Grants to clubs');
    // Round 1, a draft, owes the storefront club its line; the registration club's donation waits for round 2.
    expect(page.body).toMatch(/AUD 50\.50 at round 1(&#39;|&#x27;|')s cut-off/);
    expect(page.body).toMatch(/Next round<\/dt>\s*<dd>\d{4}-\d{2}-(15|28|29|30|31)<\/dd>/);
  });

  it('lists the rounds and shows one with its totals per club and its decisions', async () => {
    const list = await getPage(t, alice.session, '/console/grants/rounds');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('href="/console/grants/rounds/1"');
    expect(list.body).toContain('50.50');
    const round = await getPage(t, alice.session, '/console/grants/rounds/1');
    expect(round.body).toContain('Totals per club');
    expect(round.body).toContain('Riverside Junior Football Club');
    expect(round.body).toContain('*****001');
    expect(round.body).not.toContain('11110001');
    expect(round.body).toContain('Mark reviewed');
    const asViewer = await getPage(t, victor.session, '/console/grants/rounds/1');
    expect(asViewer.body).not.toContain('Mark reviewed');
    expect((await getPage(t, alice.session, '/console/grants/rounds/99')).statusCode).toBe(404);
  });

  it('refuses the drafter approving their own round, then pays it with a second admin', async () => {
    expect((await post(alice, '/console/grants/rounds/1/review')).body).toContain('Round 1: reviewed.');
    const own = await post(alice, '/console/grants/rounds/1/approve');
    expect(own.statusCode).toBeGreaterThanOrEqual(400);
    expect(own.statusCode).toBeLessThan(500);
    expect(own.body).toContain('alice@example.org cannot approve round 1: they drafted it');
    expect((await post(victor, '/console/grants/rounds/1/approve')).statusCode).toBe(403);
    const approved = await post(bob, '/console/grants/rounds/1/approve');
    expect(approved.body).toContain('Round 1: approved, its ABA file made.');
    const aba = await getPage(t, bob.session, '/console/grants/rounds/1/aba');
    expect(aba.statusCode).toBe(200);
    expect(aba.headers['content-disposition']).toContain('grants-round-1.aba');
    expect(aba.rawPayload.toString('latin1')).toMatch(/^0/);
    expect((await post(bob, '/console/grants/rounds/1/paid')).body).toContain('Round 1: marked paid');
    const again = await post(bob, '/console/grants/rounds/1/paid');
    expect(again.body).toContain('already marked paid by bob@example.org');
    const jobs = await t.db.selectFrom('grant_acquittals').select('grant_id').execute();
    expect(jobs).toHaveLength(1);
  });

  it("shows a club's grants and records an acquittal from the acquittals page", async () => {
    const club = await getPage(t, alice.session, `/console/grants/clubs/${CLUB.storefront}`);
    expect(club.statusCode).toBe(200);
    const [grant] = await t.db.selectFrom('grants').select('lodgement_reference').execute();
    const reference = grant!.lodgement_reference!;
    expect(club.body).toContain(reference);
    expect(club.body).toContain('Open acquittals');

    const due = await getPage(t, alice.session, '/console/grants/acquittals');
    expect(due.body).toContain(reference);
    expect((await getPage(t, alice.session, '/console/grants/acquittals?show=overdue')).body).toContain(
      'No acquittal is overdue.',
    );
    const today = dateIn(new Date(), t.config.FOUNDATION_TIME_ZONE);
    const fields = { grant: reference, declaredBy: 'Pat Lee', declaredOn: today, purpose: 'Uniforms' };
    const over = await post(alice, '/console/grants/acquittals/record', { ...fields, spent: '60.00' });
    expect(over.statusCode).toBe(400);
    expect(over.body).toContain('is more than the grant');
    const recorded = await post(alice, '/console/grants/acquittals/record', { ...fields, spent: '50.50' });
    expect(recorded.statusCode).toBe(200);
    expect(recorded.body).toContain(`Recorded the acquittal of grant ${reference}`);
    expect((await getPage(t, alice.session, '/console/grants/acquittals')).body).toContain('No acquittal is open.');
  });
});
