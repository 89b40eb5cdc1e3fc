import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankReference, donate, postBatch } from '../reconciliation/support.js';
import { axeViolations, focusStops } from './a11y.js';
import { ADMIN, hasChromium, signIn, startConsole, type ConsoleFixture } from './browser.js';

/**
 * Every console page in headless Chromium: no axe-core violation (WCAG 2.0–2.2 A and AA, and axe's best practices),
 * a focus indicator of at least 3:1 against its background at every Tab stop, and no sideways scrolling of the page
 * at 320 px (WCAG 1.4.10). The pages are every link of the navigation (a page added to it is checked without a
 * change here), the detail pages of the seeded objects, the sign-in page and the 404 page.
 */
describe.skipIf(!hasChromium)('console accessibility in headless Chromium', () => {
  let f: ConsoleFixture;
  /** Pages behind the navigation: one line each. */
  let details: string[];

  beforeAll(async () => {
    f = await startConsole();
    const reference = await donate(f.t, '25.00');
    const batchId = await postBatch(f.t, [
      { bankReferenceId: bankReference(), amount: 25, donationIds: [reference] },
      { bankReferenceId: bankReference(), amount: 10, donationIds: ['D-NOPE-0000'] },
    ]);
    await f.t.reconcile();
    const receipt = await f.t.db.selectFrom('receipts').select('number').executeTakeFirst();
    const partner = await f.t.db.selectFrom('partners').select('id').orderBy('name').executeTakeFirstOrThrow();
    details = [
      `/partners/${encodeURIComponent(partner.id)}`,
      '/accounts/10000001',
      `/donations/${reference}`,
      `/remittances/${batchId}`,
      `/remittances/${batchId}?exceptions=1`,
      '/bank/matches',
      '/grants/acquittals',
      '/grants/clubs/10000001',
      ...(receipt ? [`/receipts/${encodeURIComponent(receipt.number)}`] : []),
    ];
  }, 120_000);
  afterAll(async () => f?.close());

  /** Every page to check, signed in: the navigation's links, then the detail pages, then an unknown address. */
  async function consolePages(): Promise<string[]> {
    await signIn(f.page, f.base, ADMIN);
    const nav = await f.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link')
      .evaluateAll((anchors) => anchors.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
    expect(nav.length).toBeGreaterThanOrEqual(10);
    return [...nav.map((path) => path.replace(/^\/console/, '')), ...details, '/no-such-page'];
  }

  async function open(path: string) {
    const response = await f.page.goto(`${f.base}${path}`);
    expect(response?.status(), path).toBe(path === '/no-such-page' ? 404 : 200);
    await f.page.waitForLoadState('networkidle');
  }

  it('has no axe-core violation on any page, signed out or in', async () => {
    await f.page.context().clearCookies();
    const found: string[] = [];
    for (const path of ['/login', '/no-such-page']) {
      await open(path);
      found.push(...(await axeViolations(f.page)).map((v) => `${path} (signed out): ${v}`));
    }
    for (const path of await consolePages()) {
      await open(path);
      found.push(...(await axeViolations(f.page)).map((v) => `${path}: ${v}`));
    }
    expect(found).toEqual([]);
  }, 180_000);

  it('shows a focus indicator of at least 3:1 against its background at every Tab stop of every page', async () => {
    await f.page.context().clearCookies();
    await open('/login');
    const stops = (await focusStops(f.page)).map((s) => ({ page: '/login', ...s }));
    for (const path of await consolePages()) {
      await open(path);
      stops.push(...(await focusStops(f.page)).map((s) => ({ page: path, ...s })));
    }
    expect(stops.length).toBeGreaterThan(100);
    const faint = stops.filter((s) => s.ratio < 3);
    if (process.env.CONSOLE_A11Y_REPORT === '1')
      process.stderr.write(
        `focus stops: ${stops.length}, under 3:1: ${faint.length}\n${JSON.stringify(stops, null, 1)}\n`,
      );
    expect(faint).toEqual([]);
  }, 240_000);

  it('reflows at 320 px: no page scrolls sideways', async () => {
    await f.page.setViewportSize({ width: 320, height: 720 });
    try {
      await f.page.context().clearCookies();
      const wide: string[] = [];
      const overflow = () =>
        f.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      await open('/login');
      if ((await overflow()) > 0) wide.push('/login');
      for (const path of await consolePages()) {
        await open(path);
        if ((await overflow()) > 0) wide.push(`${path} (${await overflow()} px)`);
      }
      expect(wide).toEqual([]);
    } finally {
      await f.page.setViewportSize({ width: 1280, height: 900 });
    }
  }, 180_000);

  it('the checks see a fault when there is one: an image without a text, a faint focus ring', async () => {
    await f.page.context().clearCookies();
    await open('/login');
    await f.page.evaluate(() => {
      document.querySelector('main')!.append(document.createElement('img'));
      (document.querySelector('#email') as HTMLElement).style.outlineColor = '#ffbf47';
    });
    expect((await axeViolations(f.page)).map((v) => v.split(' ')[0])).toContain('image-alt');
    const email = (await focusStops(f.page)).find((s) => s.element.startsWith('input#email'));
    expect(email).toMatchObject({ background: 'rgb(255, 255, 255)', ratio: 1.64 });
  });
});
