import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPartnerIds, getPortalPage, portalUser, postPortalForm, signInPortal } from '../helpers/portal.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { donation, partnerReversal, remit } from '../reversals/support.js';

/**
 * The portal's Money pages (read-only): remittance batches and their report and CSV, reversals owed back, plans and
 * debits; each role; another partner's batch answering exactly like an unknown one.
 */
let t: TestApp;
const sessions: Record<string, { session: string; csrf: string }> = {};
let mine: { batchId: string; reference: string; bankRef: string };
let theirs: { batchId: string; reference: string };

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const page = (who: string, url: string) => getPortalPage(t, sessions[who]!.session, url);
const bare = (body: string) => body.replace(/value="[^"]+"/g, '').replace(/<header[\s\S]*?<\/header>/, '');

beforeAll(async () => {
  t = await startTestApp();
  const partners = await demoPartnerIds(t);
  for (const role of ['admin', 'developer', 'finance', 'read-only'] as const)
    sessions[role] = await signInPortal(t, await portalUser(t, { partnerId: partners.storefront, role }));
  sessions.other = await signInPortal(t, await portalUser(t, { partnerId: partners.registration, role: 'finance' }));
  const reference = await donation(t, '25.00');
  const bankRef = `BANK-PORTAL-${Date.now()}`;
  const report = await remit(t, [{ ref: bankRef, amount: 25, ids: [reference] }]);
  await partnerReversal(t, reference, '10.00');
  mine = { batchId: report.batchId, reference, bankRef };
  const theirReference = await donation(t, '7.00', 'registration');
  const theirReport = await remit(
    t,
    [{ ref: `BANK-THEIRS-${Date.now()}`, amount: 7, ids: [theirReference] }],
    'registration',
  );
  await partnerReversal(t, theirReference, '7.00', 'registration');
  theirs = { batchId: theirReport.batchId, reference: theirReference };
});
afterAll(() => t?.close());

describe('who sees the money pages', () => {
  const urls = ['/portal/money', '/portal/money/reversals', '/portal/money/plans', '/portal/money/debits'];
  it.each([
    ['admin', 200],
    ['developer', 403],
    ['finance', 200],
    ['read-only', 200],
  ])('%s: %i', async (who, status) => {
    for (const url of urls) expect((await page(who, url)).statusCode, url).toBe(status);
    expect((await page(who, `/portal/money/batches/${mine.batchId}`)).statusCode).toBe(status);
    expect((await page(who, `/portal/money/batches/${mine.batchId}/report.csv`)).statusCode).toBe(status);
  });

  it('has no change: a POST under money is refused or unknown', async () => {
    const posted = await postPortalForm(t, sessions.admin!.session, '/portal/money', { _csrf: sessions.admin!.csrf });
    expect(posted.statusCode).toBe(404);
  });
});

describe('remittances', () => {
  it('lists only the partner’s batches with status and totals', async () => {
    const list = await page('finance', '/portal/money');
    expect(list.body).toContain(mine.batchId);
    expect(list.body).not.toContain(theirs.batchId);
    expect(list.body).toContain('25.00');
  });

  it('shows a batch’s report with each entry, its outcome and funds received; the CSV is the API’s', async () => {
    const shown = await page('finance', `/portal/money/batches/${mine.batchId}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain(mine.bankRef);
    expect(shown.body).toContain(mine.reference);
    expect(shown.body).toContain('matched');
    expect(shown.body).toMatch(/Owed back AUD<\/dt>\s*<dd>10\.00/);
    const csv = await page('finance', `/portal/money/batches/${mine.batchId}/report.csv`);
    expect(csv.headers['content-type']).toContain('text/csv');
    const api = await t.get(`/remittances/${mine.batchId}`, { headers: { accept: 'text/csv' } });
    expect(csv.body).toBe(api.body);
  });

  it.each(['', '/report.csv'])('answers another partner’s batch%s exactly like an unknown one', async (suffix) => {
    const other = await page('finance', `/portal/money/batches/${theirs.batchId}${suffix}`);
    const unknown = await page('finance', `/portal/money/batches/${UNKNOWN}${suffix}`);
    const malformed = await page('finance', `/portal/money/batches/nope${suffix}`);
    expect(other.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(malformed.statusCode).toBe(404);
    expect(bare(other.body)).toBe(bare(unknown.body));
    // And the other partner sees its own.
    expect((await page('other', `/portal/money/batches/${theirs.batchId}${suffix}`)).statusCode).toBe(200);
  });
});

describe('reversals, plans and debits', () => {
  it('shows what the partner owes back, not another partner’s', async () => {
    const owed = await page('read-only', '/portal/money/reversals');
    expect(owed.body).toContain(mine.reference);
    expect(owed.body).not.toContain(theirs.reference);
    expect(owed.body).toMatch(/You owe back \$?\s*10\.00/);
    const theirsPage = await page('other', '/portal/money/reversals');
    expect(theirsPage.body).toContain(theirs.reference);
    expect(theirsPage.body).not.toContain(mine.reference);
  });

  it('lists plans and debits by status and view, refusing an unknown view gracefully', async () => {
    expect((await page('finance', '/portal/money/plans?status=active')).statusCode).toBe(200);
    const badStatus = await page('finance', '/portal/money/plans?status=bogus');
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.body).toContain('is not a plan status');
    const debits = await page('finance', '/portal/money/debits?view=bogus');
    expect(debits.statusCode).toBe(200);
    expect(debits.body).toContain('upcoming');
  });
});
