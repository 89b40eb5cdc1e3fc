import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPartnerStatus } from '../../src/services/operators/partners.js';
import { cli, ok, type Cli } from '../cli/harness.js';
import { createOperator, getPage, signIn } from '../console/support.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { LIVE_ENV, startSmtpServer, type SmtpServer } from '../receipts/support.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { contactsOf, mailsTo, mailWorker, noticesOfKind, operator } from './support.js';

/**
 * An API deprecation announced by an operator reaches the technical contacts of every active partner, once; one
 * less than 30 days away is refused and tells nobody. The partner's console page shows what it was told.
 */
const DAY = 86_400_000;
let smtp: SmtpServer;
let t: TestApp;
let run: Cli;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({
    env: { ...LIVE_ENV, SMTP_URL: smtp.url, CONSOLE_ENABLED: 'true', CONSOLE_SECURE_COOKIE: 'false' },
    deps: { payments: noPaymentProvider },
  });
  run = cli({ database: t.database, now: t.clock.now, operator: 'alice' });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
}, 60_000);

const sunsetIn = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString().slice(0, 10);

describe('an API deprecation announced by an operator', () => {
  it('tells the technical contacts of active partners once; a sunset under 30 days away tells nobody', async () => {
    const active = await contactsOf(t, t.storefront.partner);
    const suspended = await contactsOf(t, t.registration.partner);
    await setPartnerStatus(operator(t), t.registration.partner, 'suspended', 'test');

    const tooSoon = await run(
      'api',
      'deprecate',
      '--route',
      'GET /remittances',
      '--sunset',
      sunsetIn(29),
      '--description',
      'Use GET /remittances/{batchId}.',
      '--json',
    );
    expect(tooSoon.code).not.toBe(0);
    expect(tooSoon.stderr).toContain('at least 30 days away');
    expect(await noticesOfKind(t, t.storefront.partner, 'api-deprecation')).toEqual([]);

    const sunset = sunsetIn(45);
    await ok(
      run,
      'api',
      'deprecate',
      '--route',
      'GET /remittances',
      '--sunset',
      sunset,
      '--description',
      'Use GET /remittances/{batchId}.',
      '--link',
      'https://foundation.test/changes',
    );
    await mailWorker(t).run();
    const [told, ...more] = mailsTo(smtp, active.technical);
    expect(more).toEqual([]);
    expect(told!.subject).toBe(`Fundraising API: GET /remittances stop on ${sunset}`);
    expect(told!.text).toContain('Use GET /remittances/{batchId}.');
    expect(told!.text).toContain('Details: https://foundation.test/changes');
    for (const to of [active.finance, active.security, ...Object.values(suspended)])
      expect(mailsTo(smtp, to)).toEqual([]);
    expect(await noticesOfKind(t, t.registration.partner, 'api-deprecation')).toEqual([]);

    // The partner's console page lists the notice, to whom and that it was sent.
    await createOperator(t, 'viewer@foundation.test', 'viewer');
    const partnerId = (
      await t.db.selectFrom('partners').select('id').where('name', '=', t.storefront.partner).executeTakeFirstOrThrow()
    ).id;
    const { session } = await signIn(t, 'viewer@foundation.test');
    const page = await getPage(t, session, `/console/partners/${partnerId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Notices sent');
    expect(page.body).toContain('api-deprecation');
    expect(page.body).toContain(`GET /remittances stop on ${sunset}`);
    expect(page.body).toContain(`${active.technical}: sent`);
  });
});
