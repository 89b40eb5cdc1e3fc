import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, hasChromium, signIn, startConsole, type ConsoleFixture } from './browser.js';

/**
 * An unknown console address typed into Chromium (which sends no X-Correlation-ID) shows the console's 404 page in
 * the console's frame and stylesheet, signed in or not.
 */
describe.skipIf(!hasChromium)('unknown console addresses in headless Chromium', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole();
  }, 120_000);
  afterAll(async () => f?.close());

  async function expectNotFound(url: string) {
    const response = await f.page.goto(url);
    expect(response?.status(), url).toBe(404);
    expect(await response!.request().allHeaders()).not.toHaveProperty('x-correlation-id');
    expect(await f.page.title()).toBe('Not found · Fundraiser console');
    expect(await f.page.getByRole('alert').textContent()).toBe('There is no such page in the console.');
    // Styled as the other pages are: the stylesheet loaded and applied (the brand link is the console's).
    expect(await f.page.locator('link[rel="stylesheet"]').getAttribute('href')).toBe('/console/static/console.css');
    const styled = await f.page.evaluate(() => document.styleSheets[0]?.cssRules.length ?? 0);
    expect(styled).toBeGreaterThan(0);
  }

  it('shows the 404 page to a visitor who is not signed in', async () => {
    await f.page.context().clearCookies();
    await expectNotFound(`${f.base}/no-such-page`);
    expect(await f.page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await f.page.getByRole('link', { name: 'Back to the dashboard' }).click();
    expect(new URL(f.page.url()).pathname).toBe('/console/login');
  });

  it('shows the 404 page, with the navigation, to a signed-in operator', async () => {
    await signIn(f.page, f.base, ADMIN);
    for (const path of ['/no-such-page', '/partners/x/y/z', '/static/nothing.css'])
      await expectNotFound(`${f.base}${path}`);
    expect(await f.page.getByRole('navigation', { name: 'Main' }).count()).toBe(1);
    await f.page.getByRole('link', { name: 'Back to the dashboard' }).click();
    expect(await f.page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
  });
});
