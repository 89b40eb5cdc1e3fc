import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/services/operators/audit.js';
import { listPartners } from '../../src/services/operators/partners.js';
import { bankReference, donate, postBatch } from '../reconciliation/support.js';
import { ADMIN, VIEWER, hasChromium, signIn, signOut, startConsole, type ConsoleFixture } from './browser.js';

/**
 * The operator console in a real headless Chromium: an operator created with the CLI signs in, sees the partners
 * and the chart, issues credentials, previews an import with a bad row, finds a donation by its reference and
 * filters a batch's exceptions; a viewer changes nothing; a form without its CSRF token is refused.
 * CONSOLE_SCREENSHOTS=1 also saves the screenshots shown in the README (docs/console/).
 */
const SHOTS = process.env.CONSOLE_SCREENSHOTS === '1' ? 'docs/console' : null;

describe.skipIf(!hasChromium)('operator console in headless Chromium', () => {
  let f: ConsoleFixture;
  let reference: string;
  let batchId: string;

  beforeAll(async () => {
    f = await startConsole();
    reference = await donate(f.t, '25.00');
    const unknown = 'D-NOPE-0000';
    batchId = await postBatch(f.t, [
      { bankReferenceId: bankReference(), amount: 25, donationIds: [reference] },
      { bankReferenceId: bankReference(), amount: 10, donationIds: [unknown] },
    ]);
    await f.t.reconcile();
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await f?.close();
  });

  const shot = async (name: string) => {
    if (SHOTS) await f.page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
  };

  it('refuses a wrong password, signs in, shows partners and the chart, signs out', async () => {
    const { page, base } = f;
    await signIn(page, base, { email: ADMIN.email, password: 'not the password' });
    expect(await page.getByRole('alert').textContent()).toBe('Wrong e-mail or password.');
    expect(page.url()).toContain('/console/login');

    await signIn(page, base, ADMIN);
    expect(new URL(page.url()).pathname).toBe('/console');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    const partners = page.getByRole('table', { name: 'Partners' });
    expect(await partners.getByRole('link').allTextContents()).toEqual([
      'Demo Registration Partner',
      'Demo Storefront Partner',
    ]);
    const chart = page.getByRole('img', { name: /Donations received per UTC day/ });
    expect(await chart.locator('rect').count()).toBeGreaterThan(0);
    expect(await page.locator('.legend li').allTextContents()).toContain('Demo Storefront Partner · Storefront App');
    await shot('dashboard');

    await page.setViewportSize({ width: 390, height: 844 });
    const widest = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 392 && !e.closest('.table-wrap'))
        .map((e) => `${e.tagName}.${e.className}`)
        .slice(0, 5),
    );
    expect(widest).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot('dashboard-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    await signOut(page);
    expect(await page.getByRole('status').textContent()).toBe('You are signed out.');
    await page.goto(`${base}/partners`);
    expect(new URL(page.url()).pathname).toBe('/console/login');
  });

  it('refuses a form posted without its CSRF token, and changes nothing', async () => {
    const { page, base } = f;
    await signIn(page, base, ADMIN);
    const before = (await listPartners(ops())).length;
    const response = page.waitForResponse(
      (r) => r.url().endsWith('/console/partners') && r.request().method() === 'POST',
    );
    await page.evaluate(() => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = '/console/partners';
      for (const [name, value] of [
        ['name', 'Forged Partner'],
        ['channels', 'Storefront App'],
      ]) {
        const input = document.createElement('input');
        input.name = name!;
        input.value = value!;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    });
    expect((await response).status()).toBe(403);
    await page.waitForLoadState();
    expect(await page.getByRole('alert').textContent()).toContain('did not carry the console’s security token');
    expect((await listPartners(ops())).length).toBe(before);
    await signOut(page);
  });

  it('lets a viewer read but not change anything', async () => {
    const { page, base } = f;
    await signIn(page, base, VIEWER);
    await page.goto(`${base}/partners`);
    expect(await page.getByRole('button', { name: 'Create partner' }).count()).toBe(0);
    expect(await page.locator('.readonly').textContent()).toContain('viewer');
    await page.goto(`${base}/credentials`);
    expect(await page.getByRole('button', { name: /Issue|Revoke|Rotate/ }).count()).toBe(0);

    // Even a well-formed request with the viewer's own valid CSRF token is refused.
    const csrf = await page.locator('form.signout input[name=_csrf]').inputValue();
    const forged = await page.request.post(`${base}/partners`, {
      form: { _csrf: csrf, name: 'Viewer Partner', channels: 'Storefront App' },
    });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('can read but not change');
    const issued = await page.request.post(`${base}/credentials`, {
      form: { _csrf: csrf, partner: 'Demo Storefront Partner', environment: 'sit' },
    });
    expect(issued.status()).toBe(403);
    expect((await listPartners(ops())).map((p) => p.name)).not.toContain('Viewer Partner');
    await signOut(page);
  });

  it('issues credentials, shows the secret once, and the new pair works on the API', async () => {
    const { page, base } = f;
    await signIn(page, base, ADMIN);
    await page.goto(`${base}/credentials`);
    await page.getByLabel('Issue for partner').selectOption('Demo Storefront Partner');
    await page.getByRole('button', { name: 'Issue a new pair' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Credentials issued');
    const clientId = await page.getByLabel('client_id', { exact: true }).inputValue();
    const clientSecret = await page.getByLabel('client_secret', { exact: true }).inputValue();
    expect(clientSecret.length).toBeGreaterThan(20);
    await shot('credentials-issued');

    const ping = await f.t.get('/ping', { as: { clientId, clientSecret } });
    expect(ping.statusCode).toBe(200);
    const [entry] = await listAudit(ops(), { action: 'credential.issue', limit: 1 });
    expect(entry).toMatchObject({ actor: ADMIN.email, subject: clientId });
    expect(JSON.stringify(entry!.details)).not.toContain(clientSecret);

    await page.goto(`${base}/credentials?partner=Demo%20Storefront%20Partner`);
    expect(await page.content()).not.toContain(clientSecret);
    await shot('credentials');
  });

  it('previews an import: a bad row is listed, a good file shows its counts and imports on confirmation', async () => {
    const { page, base } = f;
    await page.goto(`${base}/accounts`);
    const header = 'memberNumber,crmId,name,abn,channel,status,donationAmounts';
    const bad = `${header}\n30000001,,Good Club,,Storefront App,Activated,5;10\n30000002,,Bad Club,,No Such Channel,Activated,5\n`;
    await page
      .getByLabel(/CSV or JSON file/)
      .setInputFiles({ name: 'clubs.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.getByRole('button', { name: 'Preview the import' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('clubs.csv was rejected');
    const errors = page.getByRole('table', { name: 'Row errors in clubs.csv' });
    expect(await errors.locator('tbody tr').count()).toBe(1);
    expect(await errors.locator('tbody tr').first().textContent()).toContain('line 3');
    expect(await errors.textContent()).toContain('not a known channel');
    await shot('import-errors');

    const good = `${header}\n30000001,,Good Club,,Storefront App,Activated,5;10\n`;
    await page
      .getByLabel(/CSV or JSON file/)
      .setInputFiles({ name: 'clubs.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await page.getByRole('button', { name: 'Preview the import' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Import preview');
    expect(await page.getByRole('status').textContent()).toContain('nothing has been written');
    await page.getByRole('button', { name: 'Import these 1 accounts' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Import done');

    await page.goto(`${base}/accounts?q=30000001`);
    await page.getByRole('link', { name: '30000001' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Good Club');
    expect(await page.getByRole('table', { name: 'Products per channel' }).textContent()).toContain('Storefront App');
  });

  it('finds a donation by its reference', async () => {
    const { page, base } = f;
    await page.goto(`${base}/donations`);
    await page.getByLabel('Reference').fill(reference);
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Donation ${reference}`);
    expect(await page.locator('.details').first().textContent()).toContain('25.00');
    expect(await page.getByRole('heading', { name: 'Settlement' }).count()).toBe(1);
    await shot('donation');
  });

  it("filters a batch's exceptions and exports them as CSV", async () => {
    const { page, base } = f;
    await page.goto(`${base}/remittances`);
    await page.getByRole('link', { name: batchId }).click();
    const entries = page.getByRole('table', { name: 'Entries of this batch' });
    expect(await entries.locator('tbody tr').count()).toBe(2);
    await page.getByLabel('Exceptions only').check();
    await page.getByRole('button', { name: 'Filter' }).click();
    const exceptions = page.getByRole('table', { name: 'Exceptions of this batch' });
    expect(await exceptions.locator('tbody tr').count()).toBe(1);
    expect(await exceptions.textContent()).toContain('unknown_donation');
    expect(await exceptions.textContent()).not.toContain('matched');
    await shot('remittance-exceptions');

    const csv = await page.request.get(`${base}/remittances/${batchId}/entries.csv?exceptions=1`);
    expect(csv.headers()['content-type']).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('unknown_donation');
  });

  it('shows the audit log with the console operator as the actor', async () => {
    const { page, base } = f;
    await page.goto(`${base}/audit?action=credential`);
    const table = page.getByRole('table', { name: /Audit entries/ });
    expect(await table.textContent()).toContain(ADMIN.email);
    expect(await table.textContent()).toContain('credential.issue');
    await shot('audit');
  });

  const ops = () => ({ db: f.t.db, operator: 'test', now: () => new Date() });
});
