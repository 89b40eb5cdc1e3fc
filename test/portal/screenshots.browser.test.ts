import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, startConsole, type ConsoleFixture } from '../console/browser.js';
import { demoPartnerIds, portalUser, signInPortalBrowser, type PortalTestUser } from '../helpers/portal.js';
import { donationBody } from '../helpers/test-app.js';

/**
 * The portal's pages as docs/portal.md shows them: PORTAL_SCREENSHOTS=1 rewrites docs/portal/*.png from a partner
 * with a few requests of its own (one refused), signed in as its admin. Each page must show its heading; without the
 * variable (or Chromium) the file is skipped: it documents, the other browser tests check.
 */
const SHOTS = process.env.PORTAL_SCREENSHOTS === '1' ? 'docs/portal' : null;

describe.skipIf(!hasChromium || !SHOTS)('the partner portal, photographed for docs/portal.md', () => {
  let f: ConsoleFixture;
  let origin: string;
  let admin: PortalTestUser;

  beforeAll(async () => {
    f = await startConsole();
    origin = f.base.replace(/\/console$/, '');
    admin = await portalUser(f.t, { partnerId: (await demoPartnerIds(f.t)).storefront, role: 'admin' });
    for (let i = 0; i < 6; i++) await f.t.post('/donations', donationBody(), { correlationId: randomUUID() });
    await f.t.post('/donations', { ...donationBody(), transaction: { amount: '-1' } }, { correlationId: randomUUID() });
    await f.t.get('/fundraisers?fundraiserId=NOPE-0000', { correlationId: randomUUID() });
    await f.t.app.requestLog!.flush();
    mkdirSync(SHOTS!, { recursive: true });
  }, 120_000);
  afterAll(() => f?.close());

  it('shows each page with its heading', async () => {
    const { page, t } = f;
    await page.setViewportSize({ width: 1200, height: 800 });
    await signInPortalBrowser(page, origin, admin, t.clock.now);
    const pages: [string, string, RegExp][] = [
      ['overview', '/portal', /Overview/],
      ['requests', '/portal/requests', /Requests/],
      ['usage', '/portal/usage', /Usage/],
      ['webhooks', '/portal/webhooks', /Webhooks/],
      ['credentials', '/portal/credentials', /Credentials/],
      ['money', '/portal/money', /Money|Remittance/],
      ['users', '/portal/users', /Users/],
    ];
    for (const [name, path, heading] of pages) {
      const answer = await page.goto(`${origin}${path}`);
      expect(answer?.status(), path).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).first().textContent()).resolves.toMatch(heading);
      await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
    }
  });
});
