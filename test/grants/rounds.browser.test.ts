import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ok } from '../cli/harness.js';
import { ADMIN, hasChromium, signIn, startConsole, type ConsoleFixture } from '../console/browser.js';
import { CLUB, settledDonations, tomorrow, verifiedDetails } from './support.js';

const DRAFTER = 'drafter@foundation.example';

/**
 * The grant rounds' pages in a real headless Chromium: from the rounds list to one round drafted and reviewed by
 * another admin, approved (the browser asks first), its ABA file offered, marked paid, then the acquittals it opened.
 */
describe.skipIf(!hasChromium)('the grant rounds pages in headless Chromium', () => {
  let f: ConsoleFixture;

  beforeAll(async () => {
    f = await startConsole();
    await f.t.db
      .insertInto('console_operators')
      .values({ email: DRAFTER, role: 'admin', password_hash: 'not-a-hash' })
      .execute();
    await verifiedDetails(f.t.db, CLUB.storefront, { bsb: '062-111', account: '11110001' });
    await settledDonations(f.t, [30, 20.5]);
    const run = cli({ database: f.t.database });
    await ok(run, 'grants', 'draft', '--cutoff', tomorrow(f.t), '--operator', DRAFTER);
    await ok(run, 'grants', 'review', '--round', '1', '--operator', DRAFTER);
  }, 120_000);

  afterAll(async () => {
    await f?.close();
  });

  it('walks from the rounds list to a round approved, paid, and its acquittals', async () => {
    const { page, base } = f;
    page.on('dialog', (dialog) => void dialog.accept());
    await signIn(page, base, ADMIN);
    await page.getByRole('link', { name: 'Grants' }).click();
    const rounds = page.getByRole('table', { name: 'Grant rounds, newest first' });
    expect(await rounds.textContent()).toContain(DRAFTER);
    await rounds.getByRole('link', { name: '1', exact: true }).click();
    const totals = page.getByRole('table', { name: 'Totals per club' });
    expect(await totals.textContent()).toContain('Riverside Junior Football Club');
    expect(await totals.textContent()).toContain('50.50');

    await page.getByRole('button', { name: 'Approve (makes the ABA file)' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Round 1: approved, its ABA file made.');
    expect(await page.getByRole('link', { name: 'Download the ABA file' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Mark paid (file uploaded)' }).click();
    expect(await page.getByRole('status').textContent()).toContain('Round 1: marked paid');

    await page.goto(`${base}/grants/acquittals`);
    const open = page.getByRole('table', { name: 'Open acquittals, soonest due first' });
    expect(await open.textContent()).toContain('Riverside Junior Football Club');
  });
});
