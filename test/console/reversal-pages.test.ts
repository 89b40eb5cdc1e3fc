import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/services/operators/audit.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { donation, partnerView, remit } from '../reversals/support.js';
import { createOperator, getPage, postForm, signIn } from './support.js';

/**
 * The console's side of reversals (docs/console.md, docs/reversals.md): a donation's reversals and the admins' form
 * that reverses it, finance's "Owed back" page with its CSV and the repaid button, the dashboard's figures.
 */
const ADMIN = 'admin@foundation.example';
const VIEWER = 'viewer@foundation.example';

let t: TestApp;
const refs = { open: '', settled: '' };
let batchId = '';

const audited = (action: string) => listAudit({ db: t.db, operator: 'test', now: t.clock.now }, { action, limit: 10 });

beforeAll(async () => {
  t = await startTestApp();
  await createOperator(t, ADMIN, 'admin');
  await createOperator(t, VIEWER, 'viewer');
  refs.open = await donation(t, '20.00');
  refs.settled = await donation(t, '12.00');
  batchId = (await remit(t, [{ ref: 'CON-1', amount: 12, ids: [refs.settled] }])).batchId;
}, 180_000);
afterAll(() => t?.close());

describe('reversing a donation in the console', () => {
  it('shows a viewer the reversals but no form, and refuses their POST', async () => {
    const viewer = await signIn(t, VIEWER, '/console/reversals/owed');
    const page = await getPage(t, viewer.session, `/console/donations/${refs.open}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h2>Reversals</h2>');
    expect(page.body).toContain('Not reversed.');
    expect(page.body).not.toContain(`/console/donations/${refs.open}/reversals`);
    expect(page.body).toContain('Your role (viewer) can read but not change donations');

    const refused = await postForm(t, viewer.session, `/console/donations/${refs.open}/reversals`, {
      _csrf: viewer.csrf,
      amount: '1.00',
      reason: 'error',
      note: 'not mine to do',
      confirm: 'yes',
    });
    expect(refused.statusCode).toBe(403);
    expect((await partnerView(t, refs.open)).reversals).toEqual([]);
  });

  it('lets an admin reverse with the CSRF token and a confirmation; errors are shown on the page; audited', async () => {
    const admin = await signIn(t, ADMIN, '/console/reversals/owed');
    const url = `/console/donations/${refs.open}/reversals`;
    const page = await getPage(t, admin.session, `/console/donations/${refs.open}`);
    expect(page.body).toContain(`action="${url}"`);
    expect(page.body).toContain('name="confirm" value="yes" required');
    const order = { amount: '5.00', reason: 'refunded', note: 'Order canceled at the counter', confirm: 'yes' };

    expect((await postForm(t, admin.session, url, order)).statusCode).toBe(403);
    const unconfirmed = await postForm(t, admin.session, url, { ...order, _csrf: admin.csrf, confirm: '' });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.body).toContain('Tick the confirmation to reverse: nothing was changed.');
    const tooMuch = await postForm(t, admin.session, url, { ...order, _csrf: admin.csrf, amount: '20.01' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.body).toContain(`At most 20.00 of donation ${refs.open} is left to reverse.`);
    expect((await partnerView(t, refs.open)).reversals).toEqual([]);

    const done = await postForm(t, admin.session, url, { ...order, _csrf: admin.csrf });
    expect(done.statusCode).toBe(200);
    expect(done.body).toMatch(/Reversed 5\.00 AUD \(REV-[0-9A-Z]+\); the partner is told\./);
    expect(done.body).toContain('Order canceled at the counter');
    expect(done.body).toContain('at most 15.00');
    const seen = await partnerView(t, refs.open);
    expect(seen).toMatchObject({ netAmount: '15.00' });
    expect(seen.reversals).toEqual([expect.objectContaining({ requestedBy: 'foundation', reason: 'refunded' })]);
    expect(await audited('donation.reverse')).toEqual([
      expect.objectContaining({
        actor: ADMIN,
        subject: refs.open,
        details: expect.objectContaining({ amount: '5.00', reason: 'refunded', note: 'Order canceled at the counter' }),
      }),
    ]);

    const rest = await postForm(t, admin.session, url, { ...order, _csrf: admin.csrf, amount: '15', reason: 'error' });
    expect(rest.statusCode).toBe(200);
    // Nothing is left to reverse: no form any more.
    expect(rest.body).not.toContain(`action="${url}"`);
    const again = await postForm(t, admin.session, url, { ...order, _csrf: admin.csrf, amount: '1' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain(`Donation ${refs.open} is already reversed in full.`);
  });
});

describe('owed back, for finance', () => {
  let reversalId = '';

  beforeAll(async () => {
    const admin = await signIn(t, ADMIN, '/console/reversals/owed');
    const done = await postForm(t, admin.session, `/console/donations/${refs.settled}/reversals`, {
      _csrf: admin.csrf,
      amount: '2.50',
      reason: 'duplicate',
      note: '=SUM(A1), charged "twice"',
      confirm: 'yes',
    });
    expect(done.body).toContain('The donation was settled: the money is owed back.');
    reversalId = /Reversed 2\.50 AUD \((REV-[0-9A-Z]+)\)/.exec(done.body)![1]!;
  });

  it('lists what is owed back with totals, linked from the navigation and the dashboard', async () => {
    const viewer = await signIn(t, VIEWER, '/console/reversals/owed');
    const page = await getPage(t, viewer.session, '/console/reversals/owed');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="/console/reversals/owed" aria-current="page"');
    expect(page.body).toContain(reversalId);
    expect(page.body).toContain(`/console/donations/${refs.settled}`);
    expect(page.body).toContain('In all: 1 reversal(s), AUD 2.50');
    expect(page.body).toContain(ADMIN);
    expect(page.body).not.toContain('Mark repaid');
    expect(page.body).toContain('href="/console/reversals/owed.csv"');
    const other = await getPage(t, viewer.session, '/console/reversals/owed?partner=Demo+Registration+Partner');
    expect(other.body).toContain('Nothing is owed back.');

    const dashboard = await getPage(t, viewer.session, '/console');
    expect(dashboard.body).toMatch(/<dt>Reversals since [0-9-]+<\/dt>\s*<dd>3<\/dd>/);
    expect(dashboard.body).toMatch(/<dd>1 reversal\(s\), AUD 2\.50<\/dd>/);
    expect(dashboard.body).toContain('href="/console/reversals/owed"');
  });

  it('downloads the list as CSV that csv-parse reads back; a batch’s entries state what was reversed', async () => {
    const { session } = await signIn(t, VIEWER, '/console/reversals/owed');
    const csv = await getPage(t, session, '/console/reversals/owed.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="owed-back.csv"');
    const rows = parse<Record<string, string>>(csv.body, { columns: true });
    expect(rows).toEqual([
      expect.objectContaining({
        reversalId,
        donationReferenceId: refs.settled,
        amountAud: '2.50',
        reason: 'duplicate',
        requestedBy: ADMIN,
        note: `'=SUM(A1), charged "twice"`,
      }),
    ]);
    const entries = await getPage(t, session, `/console/remittances/${batchId}/entries.csv`);
    expect(parse(entries.body, { columns: true })).toEqual([
      expect.objectContaining({ bankReferenceId: 'CON-1', amountAud: '12.00', reversedAud: '2.50' }),
    ]);
  });

  it('lets an admin mark it repaid with a note, once; a viewer cannot', async () => {
    const url = `/console/reversals/${reversalId}/repaid`;
    const viewer = await signIn(t, VIEWER, '/console/reversals/owed');
    expect((await postForm(t, viewer.session, url, { _csrf: viewer.csrf, note: 'EFT' })).statusCode).toBe(403);

    const admin = await signIn(t, ADMIN, '/console/reversals/owed');
    const page = await getPage(t, admin.session, '/console/reversals/owed');
    expect(page.body).toContain(`action="${url}"`);
    const noNote = await postForm(t, admin.session, url, { _csrf: admin.csrf, note: '' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.body).toContain('Say why in a note');

    const repaid = await postForm(t, admin.session, url, { _csrf: admin.csrf, note: 'EFT 2026-12-02' });
    expect(repaid.statusCode).toBe(200);
    expect(repaid.body).toContain(`Reversal ${reversalId} (2.50 AUD to Demo Storefront Partner) is marked repaid.`);
    expect(repaid.body).toContain('Nothing is owed back.');
    const again = await postForm(t, admin.session, url, { _csrf: admin.csrf, note: 'twice' });
    expect(again.statusCode).toBe(409);
    expect((await partnerView(t, refs.settled)).owedBack).toBe('0.00');
    expect(await audited('reversal.repaid')).toEqual([
      expect.objectContaining({
        actor: ADMIN,
        details: expect.objectContaining({ reversalId, note: 'EFT 2026-12-02' }),
      }),
    ]);
    const donationPage = await getPage(t, admin.session, `/console/donations/${refs.settled}`);
    expect(donationPage.body).toContain(`repaid by ${ADMIN}`);
  });
});
