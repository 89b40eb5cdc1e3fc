import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../console/a11y.js';
import { hasChromium, startConsole, type ConsoleFixture } from '../console/browser.js';
import { demoPartnerIds, portalUser, signInPortalBrowser, type PortalTestUser } from '../helpers/portal.js';
import { give, settle } from '../receipts/donations.js';
import { startReceiver, webhookWorker, type Receiver } from '../webhooks/support.js';

/**
 * The portal's Webhooks, Money and Sandbox pages in headless Chromium: an endpoint added through its form (the
 * secret shown once), a test event, the resend of a delivery by its button, and axe-core on each of these pages.
 * Skipped without Chromium, as the console's.
 */
describe.skipIf(!hasChromium)('the portal’s webhooks, money and sandbox pages in Chromium', () => {
  let f: ConsoleFixture;
  let origin: string;
  let admin: PortalTestUser;
  let receiver: Receiver;
  let reference: string;

  beforeAll(async () => {
    f = await startConsole();
    origin = f.base.replace(/\/console$/, '');
    receiver = await startReceiver();
    const partners = await demoPartnerIds(f.t);
    admin = await portalUser(f.t, { partnerId: partners.storefront, role: 'admin' });
    reference = await give(f.t, '12.00', { email: 'browser.donor@example.com' });
    await settle(f.t, [{ id: reference, amount: 12 }]);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await f?.close();
  });

  const noViolations = async (what: string) => expect(await axeViolations(f.page), what).toEqual([]);

  it('adds an endpoint, sends a test event and resends its delivery; the pages pass axe-core', async () => {
    const { page, t } = f;
    await page.context().clearCookies();
    await signInPortalBrowser(page, origin, admin, t.clock.now);
    await page.goto(`${origin}/portal/webhooks`);
    await noViolations('webhooks');
    await page.getByLabel(/^URL/).fill(receiver.url);
    await page.getByLabel('* (every type, present and future)').check();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await page.getByRole('heading', { name: 'Webhook signing secret' }).waitFor();
    await noViolations('new endpoint secret');
    expect(await page.locator('#secret').inputValue()).toMatch(/^whsec_/);
    await page.getByRole('link', { name: 'Go to the endpoint' }).click();
    const endpointUrl = page.url();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText(/A webhook.test event .* is queued/).waitFor();
    await webhookWorker(t).runPending({ now: true });
    // Not a reload: that would post the form again.
    await page.goto(endpointUrl);
    await noViolations('endpoint with a delivery');
    expect(await page.textContent('main')).toMatch(/200 in \d+ ms/);
    const tests = () => receiver.requests.filter((r) => r.json<{ type: string }>().type === 'webhook.test');
    expect(tests()).toHaveLength(1);
    await page
      .getByRole('button', { name: /^Resend delivery / })
      .first()
      .click();
    await page.getByText(/Queued again as delivery/).waitFor();
    await webhookWorker(t).runPending({ now: true });
    // The same event again, with the same webhook-id.
    expect(tests()).toHaveLength(2);
    expect(tests()[1]!.headers['webhook-id']).toBe(tests()[0]!.headers['webhook-id']);
    await page.goto(`${origin}/portal/webhooks/events`);
    await noViolations('event log');
  });

  it('shows the money and sandbox pages, each passing axe-core', async () => {
    const { page } = f;
    for (const path of ['/portal/money', '/portal/money/reversals', '/portal/money/plans', '/portal/money/debits']) {
      await page.goto(`${origin}${path}`);
      await noViolations(path);
    }
    await page.goto(`${origin}/portal/money`);
    await page.locator('table a').first().click();
    await page.getByRole('link', { name: 'Download the report (CSV)' }).waitFor();
    await noViolations('remittance batch');
    await page.goto(`${origin}/portal/sandbox`);
    await noViolations('sandbox');
    await page.getByLabel(/Move it forward by/).fill('P1D');
    await page.getByRole('button', { name: 'Advance the clock' }).click();
    await page.getByText(/Your sandbox clock is now/).waitFor();
    await page.getByLabel('Donation reference id').fill(reference);
    await page.getByRole('button', { name: 'Show its receipts' }).click();
    await page.getByText('in force').waitFor();
    await noViolations('sample receipts');
  });
});
