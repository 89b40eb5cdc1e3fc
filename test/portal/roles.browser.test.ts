import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { may, PORTAL_ROLES, type PortalArea } from '../../src/domain/portal-roles.js';
import { axeViolations } from '../console/a11y.js';
import { hasChromium, startConsole, type ConsoleFixture } from '../console/browser.js';
import { demoPartnerIds, portalUser, signInPortalBrowser } from '../helpers/portal.js';

/** Each area's page, as its menu entry (sandbox has none: the overview links it where the simulator runs). */
const PAGES: [PortalArea, string][] = [
  ['request-log', '/portal/requests'],
  ['usage', '/portal/usage'],
  ['webhooks', '/portal/webhooks'],
  ['credentials', '/portal/credentials'],
  ['money', '/portal/money'],
  ['sandbox', '/portal/sandbox'],
  ['users', '/portal/users'],
];

/**
 * Every role in Chromium: signed in through the real form with its second factor, it is shown the areas its role
 * reads and refused the others (docs/portal.md, "Roles"), and each page it is shown passes axe-core.
 */
describe.skipIf(!hasChromium)('the partner portal, role by role, in Chromium', () => {
  let f: ConsoleFixture;
  let origin: string;

  beforeAll(async () => {
    f = await startConsole();
    origin = f.base.replace(/\/console$/, '');
  }, 120_000);
  afterAll(() => f?.close());

  for (const role of PORTAL_ROLES)
    it(`${role}: reads its areas, is refused the others, and every page it reads passes axe-core`, async () => {
      const { page, t } = f;
      const user = await portalUser(t, { partnerId: (await demoPartnerIds(t)).storefront, role });
      await page.context().clearCookies();
      await signInPortalBrowser(page, origin, user, t.clock.now);
      const menu = await page.locator('header nav a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      for (const [area, path] of PAGES) {
        const allowed = may(role, 'read', area);
        if (area !== 'sandbox') expect(menu.includes(path), `${role} menu ${path}`).toBe(allowed);
        const answer = await page.goto(`${origin}${path}`);
        expect(answer?.status(), `${role} ${path}`).toBe(allowed ? 200 : 403);
        expect(await axeViolations(page), `${role} ${path}`).toEqual([]);
      }
    });
});
