import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ok } from '../cli/harness.js';
import { ADMIN, hasChromium, signIn, startConsole, VIEWER, type ConsoleFixture } from '../console/browser.js';
import { createClubs } from './fixtures.js';

/**
 * The pending bank changes page in a real headless Chromium (docs/grants.md, "Bank details"): an admin is refused
 * verifying a change they entered, verifies another's change with the confirmation, and a viewer sees no forms.
 */
describe.skipIf(!hasChromium)('pending bank changes in headless Chromium', () => {
  let f: ConsoleFixture;

  beforeAll(async () => {
    f = await startConsole();
    const desk = cli({ database: f.t.database, now: f.t.clock.now, operator: 'data-desk' });
    const ada = cli({ database: f.t.database, now: f.t.clock.now, operator: ADMIN.email });
    await createClubs(desk, [
      ['60000001', 'Browser Club'],
      ['60000002', 'Own Change Club'],
    ]);
    const set = ['--bsb', '062-000', '--name', 'Club Account'];
    await ok(desk, 'grants', 'bank-set', '--account', '60000001', '--number', '11122233', ...set);
    await ok(ada, 'grants', 'bank-set', '--account', '60000002', '--number', '44455566', ...set);
  }, 120_000);

  afterAll(async () => {
    await f?.close();
  });

  it('refuses the enterer, verifies another’s change with the confirmation, and shows it payable', async () => {
    const { page, base } = f;
    await signIn(page, base, ADMIN);
    await page.getByRole('link', { name: 'Bank changes' }).click();
    const table = page.getByRole('table', { name: 'Bank changes waiting for a second operator, oldest first' });
    expect(await table.textContent()).toContain('11122233');

    const own = table.getByRole('row').filter({ hasText: 'Own Change Club' });
    await own.getByLabel('Whom you called, on which number on file').fill('Called myself');
    await own.getByRole('button', { name: 'Verify' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('cannot verify a change they entered');

    const other = page.getByRole('row').filter({ hasText: 'Browser Club' });
    await other.getByLabel('Whom you called, on which number on file').fill('Called Jo, treasurer, on 02 9000 1111');
    await other.getByRole('button', { name: 'Verify' }).click();
    expect(await page.getByRole('status').textContent()).toMatch(
      /The bank details of Browser Club are verified: payable from \S+ \(in its hold period\)/,
    );
    expect(await page.getByRole('main').textContent()).not.toContain('Browser Club (60000001)');

    await page.goto(`${base}/accounts/60000001/bank`);
    const current = page.locator('section.card').filter({ hasText: 'Current bank details' });
    expect(await current.textContent()).toContain('Called Jo, treasurer, on 02 9000 1111');
  });

  it('shows a viewer the list masked, without forms', async () => {
    const { page, base } = f;
    await signIn(page, base, VIEWER);
    await page.goto(`${base}/grants/bank-changes`);
    const main = (await page.getByRole('main').textContent()) ?? '';
    expect(main).toContain('Own Change Club');
    expect(main).toContain('•••••566');
    expect(main).not.toContain('44455566');
    expect(await page.getByRole('button', { name: 'Verify' }).count()).toBe(0);
  });
});
