import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, hasChromium, signIn, signOut, startConsole, type ConsoleFixture } from './browser.js';

/**
 * Every HTML page — the API reference at {base}/docs, the sandbox's mandate confirmation page, the console — is
 * used in a real Chromium under its content security policy (docs/decisions/0043-protective-headers-and-no-cors.md),
 * and the browser reports no violation: neither a `securitypolicyviolation` event in the page nor a "Refused to …"
 * message on the console. The last test
 * breaks the policy on purpose, to show that the detector sees a violation when there is one.
 */
declare global {
  interface Window {
    cspViolations?: string[];
  }
}

describe.skipIf(!hasChromium)('no content security policy violation on any HTML page, in headless Chromium', () => {
  let f: ConsoleFixture;
  let origin: string;
  const consoleMessages: string[] = [];

  beforeAll(async () => {
    f = await startConsole();
    origin = new URL(f.base).origin;
    await f.context.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.cspViolations!.push(
          `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
        ),
      );
    });
    f.page.on('console', (message) => {
      if (/content security policy|refused to/i.test(message.text())) consoleMessages.push(message.text());
    });
  }, 120_000);
  afterAll(async () => f?.close());
  beforeEach(() => void consoleMessages.splice(0));

  /** The violations seen since the page loaded (events) and since the test began (console). */
  const violations = async () => [...consoleMessages, ...(await f.page.evaluate(() => window.cspViolations ?? []))];

  /** Opens a page, checks it is served with a strict policy, and returns nothing until the page has settled. */
  async function open(url: string) {
    const response = await f.page.goto(url);
    expect(response?.status(), url).toBe(200);
    const policy = (await response!.allHeaders())['content-security-policy'];
    expect(policy, url).toContain("script-src 'self'");
    expect(policy, url).not.toContain('unsafe-inline');
    await f.page.waitForLoadState('networkidle');
  }

  it('the API reference: loads the document, expands an operation and a schema', async () => {
    await open(`${origin}/v1/docs/`);
    const operations = f.page.locator('.opblock');
    await operations.first().waitFor();
    expect(await operations.count()).toBeGreaterThanOrEqual(20);
    await f.page.locator('.opblock-summary').first().click();
    await f.page.locator('.opblock-body').first().waitFor();
    await f.page.getByRole('button', { name: 'Try it out' }).first().click();
    await f.page
      .locator('.models-control, .model-box-control')
      .first()
      .click()
      .catch(() => undefined);
    await f.page.waitForLoadState('networkidle');
    expect(await violations()).toEqual([]);
  });

  it('the sandbox mandate confirmation page', async () => {
    const created = await f.t.post('/mandates', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam.coach@example.com' },
      paymentMethod: 'Direct Debit',
    });
    const { mandateId } = created.json().data.items;
    await f.t.post(`/sandbox/mandates/${mandateId}/confirm`, { bsb: '000-000', accountNumber: '000123456' });
    const url = new URL((await f.t.get('/mandates', { query: { id: mandateId } })).json().data.items.mandate.url);
    await open(`${origin}${url.pathname}`);
    expect(await f.page.getByRole('heading', { level: 1 }).textContent()).toContain('BECS direct debit request');
    expect(await violations()).toEqual([]);
  });

  it('the console: sign-in, every page of the navigation, a search form, the chart, an error page, sign-out', async () => {
    await signIn(f.page, f.base, ADMIN);
    expect(await violations()).toEqual([]);
    const links = await f.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link')
      .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
    expect(links.length).toBeGreaterThanOrEqual(7);
    for (const link of links) {
      await open(link);
      expect(await violations(), link).toEqual([]);
    }
    await open(`${f.base}/donations`);
    await f.page.getByLabel('Reference').fill('D-NOPE-0000');
    await f.page.getByRole('button', { name: 'Search' }).click();
    await f.page.waitForLoadState('networkidle');
    expect(await violations()).toEqual([]);
    await f.page.goto(`${f.base}/no-such-page`);
    expect(await violations()).toEqual([]);
    await f.page.goto(f.base);
    await signOut(f.page);
    expect(await violations()).toEqual([]);
  });

  it('the detector sees a violation when a page breaks the policy (inline script and inline style)', async () => {
    await open(`${f.base}/login`);
    await f.page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.title = "inline ran"';
      document.body.append(script);
      const styled = document.createElement('div');
      styled.innerHTML = '<p style="color: red">styled</p>';
      document.body.append(styled);
    });
    await f.page.waitForTimeout(200);
    const seen = await violations();
    expect(await f.page.title()).not.toBe('inline ran');
    expect(seen.some((v) => v.includes('script-src'))).toBe(true);
    expect(seen.some((v) => v.includes('style-src'))).toBe(true);
  });
});
