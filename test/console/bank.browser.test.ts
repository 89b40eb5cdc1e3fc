import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camt053, dayOf, expectedBatch, fundsReceived } from '../bank-statements/support.js';
import { ADMIN, hasChromium, signIn, startConsole, type ConsoleFixture } from './browser.js';

/**
 * The Bank page in a real headless Chromium (docs/bank-statements.md, "Console"): an admin uploads a camt.053
 * statement, confirms a suggestion (the browser asks first) and undoes the match with a reason.
 * CONSOLE_SCREENSHOTS=1 also saves docs/console/bank.png, the screenshot of docs/bank-statements.md.
 */
const SHOTS = process.env.CONSOLE_SCREENSHOTS === '1' ? 'docs/console' : null;

describe.skipIf(!hasChromium)('the Bank page in headless Chromium', () => {
  let f: ConsoleFixture;
  let batchId: string;

  beforeAll(async () => {
    f = await startConsole();
    batchId = await expectedBatch(f.t, [
      { ref: 'PAY-ACME-0042', amount: '48.00' },
      { ref: 'PAY-ACME-0043', amount: '12.00' },
    ]);
    await expectedBatch(f.t, [{ ref: 'PAY-ACME-0044', amount: '75.00' }]);
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await f?.close();
  });

  it('uploads a statement, confirms a suggestion and undoes the match with a reason', async () => {
    const { page, base } = f;
    page.on('dialog', (dialog) => void dialog.accept());
    await signIn(page, base, ADMIN);
    await page.goto(`${base}/bank`);
    const statement = camt053([
      { amount: '75.00', booked: dayOf(f.t), bankRef: 'BK-1', endToEndId: 'PAY-ACME-0044', payer: 'Storefront App' },
      { amount: '60.00', booked: dayOf(f.t, 1), bankRef: 'BK-2', ustrd: ['STOREFRONT SETTLEMENT NOV'] },
      { amount: '19.90', booked: dayOf(f.t, -2), bankRef: 'BK-3', ustrd: ['J CITIZEN GIFT'] },
    ]);
    await page
      .getByLabel(/camt.053 \(.xml\) or CSV export/)
      .setInputFiles({ name: 'statement.xml', mimeType: 'application/xml', buffer: Buffer.from(statement) });
    await page.getByRole('button', { name: 'Import and match' }).click();
    expect(await page.getByRole('status').textContent()).toContain('1 matched automatically');
    const suggestions = page.getByRole('table', { name: 'Suggestions to confirm or reject, best first' });
    expect(await suggestions.textContent()).toContain('line pays entries');
    expect(await page.getByRole('table', { name: 'Credit lines not matched, oldest first' }).textContent()).toContain(
      'J CITIZEN GIFT',
    );
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/bank.png`, fullPage: true });

    await suggestions.getByRole('button', { name: 'Confirm' }).first().click();
    expect(await page.getByRole('status').textContent()).toContain('the money of 2 entries is received');
    expect(await fundsReceived(f.t, batchId)).toEqual([true, true]);

    await page.getByRole('link', { name: 'Matches made, and undoing one' }).click();
    const form = page.locator('form[action$="/unmatch"]').first();
    await form.getByLabel('Why undo').fill('the bank reversed this credit');
    await form.getByRole('button', { name: 'Unmatch' }).click();
    expect(await page.getByRole('status').textContent()).toMatch(/Match \d+ undone/);
  });
});
