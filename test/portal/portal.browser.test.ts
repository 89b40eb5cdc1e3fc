import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteUser, portalUserSettings } from '../../src/services/portal/users.js';
import { axeViolations } from '../console/a11y.js';
import { hasChromium, startConsole, type ConsoleFixture } from '../console/browser.js';
import { demoPartnerIds, portalUser, signInPortalBrowser, totpCode, type PortalTestUser } from '../helpers/portal.js';

/**
 * The portal in headless Chromium: an invitation from its mail to a signed-in user (password, TOTP enrolment with
 * the code computed from the secret the page shows, sign-in with a later code), a rotation with its secret shown
 * once, and axe-core on every page. Skipped without Chromium, as the console's.
 */
describe.skipIf(!hasChromium)('the partner portal in Chromium', () => {
  let f: ConsoleFixture;
  let origin: string;
  let admin: PortalTestUser;

  beforeAll(async () => {
    f = await startConsole();
    origin = f.base.replace(/\/console$/, '');
    const partners = await demoPartnerIds(f.t);
    admin = await portalUser(f.t, { partnerId: partners.storefront, role: 'admin' });
  }, 120_000);
  afterAll(() => f?.close());

  const noViolations = async (what: string) => expect(await axeViolations(f.page), what).toEqual([]);

  it('takes an invitation from its mail to a signed-in user with a TOTP app', async () => {
    const { page, t } = f;
    const partners = await demoPartnerIds(t);
    const ops = { db: t.db, now: t.clock.now, operator: 'ada@foundation.example' };
    await inviteUser(
      ops,
      portalUserSettings(t.config),
      { id: partners.storefront, name: 'Storefront' },
      {
        email: 'browser.person@partner.example',
        role: 'developer',
      },
    );
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('recipient', '=', 'browser.person@partner.example')
      .executeTakeFirstOrThrow();
    const path = /\/portal\/invitation\/[A-Za-z0-9_-]+/.exec(mail.text_body!)![0];
    await page.context().clearCookies();
    await page.goto(`${origin}${path}`);
    await noViolations('invitation: password');
    await page.getByLabel(/Choose a password/).fill('saffron kettle 58 orbit');
    await page.getByLabel('The same password again').fill('saffron kettle 58 orbit');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Set up your authenticator app' }).waitFor();
    await noViolations('invitation: enrolment');
    const secret = (await page.locator('#totp-secret').textContent())!.trim();
    expect(await page.locator('#totp-uri').textContent()).toContain('otpauth://totp/');
    await page.getByLabel('Code from your app').fill(totpCode(secret, t.clock.now()));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await noViolations('invitation: recovery codes');
    const codes = await page.locator('ul.codes li').allTextContents();
    expect(codes).toHaveLength(10);

    const person: PortalTestUser = {
      id: '',
      email: 'browser.person@partner.example',
      password: 'saffron kettle 58 orbit',
      role: 'developer',
      partnerId: partners.storefront,
      totpSecret: secret,
      recoveryCodes: codes,
      signIns: 2,
    };
    await page.goto(`${origin}/portal/sign-in`);
    await noViolations('sign-in');
    await signInPortalBrowser(page, origin, person, t.clock.now);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.textContent('main')).toContain('browser.person@partner.example');
  });

  it('rotates a credential and shows its secret once; every page passes axe-core', async () => {
    const { page, t } = f;
    await page.context().clearCookies();
    await page.goto(`${origin}/portal/sign-in`);
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Second step' }).waitFor();
    await noViolations('second step');
    await page.getByLabel(/Code from your authenticator app/).fill(totpCode(admin.totpSecret, t.clock.now()));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await noViolations('overview');
    await page.goto(`${origin}/portal/users`);
    await noViolations('users');
    await page.goto(`${origin}/portal/nowhere`);
    await noViolations('not found');
    await page.goto(`${origin}/portal/credentials`);
    await noViolations('credentials');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Rotate' }).first().click();
    await page.getByRole('heading', { name: 'New credential' }).waitFor();
    await noViolations('new credential');
    const secret = await page.locator('#secret').inputValue();
    expect(secret).toMatch(/^[A-Z0-9]{40,}$/);
    await page.goto(`${origin}/portal/credentials`);
    expect(await page.content()).not.toContain(secret);
  });
});
