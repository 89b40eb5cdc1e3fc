import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { webhookSecretKey } from '../../src/config/webhooks.js';
import type { PortalRole } from '../../src/domain/portal-roles.js';
import {
  insertPortalUser,
  replaceRecoveryCodes,
  updatePortalUser,
} from '../../src/infrastructure/repositories/portal-users.js';
import { hashPassword } from '../../src/services/console/passwords.js';
import {
  TotpSecrets,
  hashRecoveryCode,
  hashToken,
  newRecoveryCodes,
  newTotpSecret,
} from '../../src/services/portal/totp.js';
import type { TestApp } from './test-app.js';

/**
 * Partner users of the portal for tests: created active with a password, an enrolled TOTP secret and recovery
 * codes (what the invitation, acceptance and enrolment pages do; test/portal/invitation.test.ts drives those), and
 * signed in through the real forms.
 */
export interface PortalTestUser {
  id: string;
  email: string;
  password: string;
  role: PortalRole;
  partnerId: string;
  totpSecret: string;
  recoveryCodes: string[];
  /** Sign-ins so far: each needs a code not used before (a TOTP step is accepted once). */
  signIns: number;
}

const PORTAL_PASSWORD = 'quartz meadow lantern 2026 ribbon';

/** The demo partners' ids (startTestApp seeds Storefront App and Registration Integration). */
export async function demoPartnerIds(t: TestApp): Promise<{ storefront: string; registration: string }> {
  const rows = await t.db.selectFrom('partners').select(['id', 'name']).orderBy('name').execute();
  const id = (name: string) => rows.find((r) => r.name.includes(name))!.id;
  return { storefront: id('Storefront'), registration: id('Registration') };
}

export async function portalUser(
  t: Pick<TestApp, 'db' | 'config'>,
  options: { partnerId: string; role: PortalRole; email?: string },
): Promise<PortalTestUser> {
  const email = options.email ?? `${options.role}-${randomUUID().slice(0, 8)}@partner.example`;
  const row = await insertPortalUser(t.db, {
    partnerId: options.partnerId,
    email,
    role: options.role,
    invitedBy: 'test-setup',
    inviteTokenHash: hashToken(randomUUID()),
    inviteExpiresAt: new Date(Date.now() + 3_600_000),
  });
  const totpSecret = newTotpSecret();
  const recoveryCodes = newRecoveryCodes();
  await updatePortalUser(
    t.db,
    row.id,
    {
      status: 'active',
      passwordHash: await hashPassword(PORTAL_PASSWORD),
      totpSecret: new TotpSecrets(webhookSecretKey(t.config)).seal(totpSecret, row.id),
      inviteTokenHash: null,
      inviteExpiresAt: null,
    },
    new Date(),
  );
  await replaceRecoveryCodes(t.db, row.id, recoveryCodes.map(hashRecoveryCode));
  return {
    id: row.id,
    email,
    password: PORTAL_PASSWORD,
    role: options.role,
    partnerId: options.partnerId,
    totpSecret,
    recoveryCodes,
    signIns: 0,
  };
}

/** The TOTP code of `secret` at `at`, as an authenticator app shows it. */
export const totpCode = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at.getTime(),
  });

/**
 * The next code a user can sign in with at `now`: the codes of the previous, current and next time steps in turn
 * (each step is accepted once, in increasing order), then its recovery codes.
 */
function nextCode(user: PortalTestUser, now: Date): string {
  const n = user.signIns++;
  if (n < 3) return totpCode(user.totpSecret, new Date(now.getTime() + (n - 1) * 30_000));
  return user.recoveryCodes[n - 3]!;
}

const csrfOf = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';

/** Signs in through both forms; the session cookie and the session's CSRF token (read from `page`). */
export async function signInPortal(t: TestApp, user: PortalTestUser, page = '/portal') {
  const form = await t.app.inject({ method: 'GET', url: '/portal/sign-in' });
  const signinCookie = form.cookies.find((c) => c.name === 'portal_signin_csrf')!.value;
  const first = await postPortalForm(
    t,
    '',
    '/portal/sign-in',
    { _csrf: csrfOf(form.body), email: user.email, password: user.password },
    { portal_signin_csrf: signinCookie },
  );
  expect(first.statusCode).toBe(303);
  const pending = first.cookies.find((c) => c.name === 'portal_pending')!.value;
  const codeForm = await t.app.inject({
    method: 'GET',
    url: '/portal/sign-in/code',
    cookies: { portal_pending: pending },
  });
  const second = await postPortalForm(
    t,
    '',
    '/portal/sign-in/code',
    { _csrf: csrfOf(codeForm.body), code: nextCode(user, t.clock.now()) },
    { portal_pending: pending },
  );
  expect(second.statusCode).toBe(303);
  const session = second.cookies.find((c) => c.name === 'portal_session')!.value;
  const shown = await getPortalPage(t, session, page);
  return { session, csrf: csrfOf(shown.body) };
}

export const getPortalPage = (t: TestApp, session: string, url: string): Promise<LightMyRequestResponse> =>
  t.app.inject({ method: 'GET', url, cookies: { portal_session: session } });

export const postPortalForm = (
  t: TestApp,
  session: string,
  url: string,
  fields: Record<string, string>,
  cookies: Record<string, string> = { portal_session: session },
): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method: 'POST',
    url,
    cookies,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** Signs a user in through the browser's forms (playwright), computing the TOTP code from its secret. */
export async function signInPortalBrowser(page: Page, base: string, user: PortalTestUser, now: () => Date) {
  await page.goto(`${base}/portal/sign-in`);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel(/Code from your authenticator app/).fill(nextCode(user, now()));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/portal(\/|$|\?)/);
}
