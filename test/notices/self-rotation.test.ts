import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { LIVE_ENV, startSmtpServer, type SmtpServer } from '../receipts/support.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { contactsOf, mailsTo, mailWorker, noticesOfKind } from './support.js';

/**
 * A partner rotating its own credential (POST /credentials/rotate): its security contacts (and technical ones) are
 * told by e-mail, once per rotation, saying who rotated; a rotation refused by the throttle tells nobody.
 */
let smtp: SmtpServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({
    env: { ...LIVE_ENV, SMTP_URL: smtp.url, CREDENTIAL_SELF_ROTATIONS_PER_DAY: '2', CREDENTIAL_CACHE_TTL_SECONDS: '0' },
    deps: { payments: noPaymentProvider },
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
}, 60_000);

const rotateAs = (pair: { clientId: string; clientSecret: string }, key?: string) =>
  t.post('/credentials/rotate', {}, { as: pair, headers: key ? { 'idempotency-key': key } : {} });

describe('a partner’s own rotation', () => {
  it('tells the security contact once per rotation; the throttled third one tells nobody', async () => {
    const partner = t.storefront.partner;
    const contacts = await contactsOf(t, partner);
    const first = await rotateAs(t.storefront, 'rotation-one');
    expect(first.statusCode).toBe(201);
    const pair = first.json().data.items;
    // A retry with the same key replays the answer: no second rotation, no second notice.
    expect((await rotateAs(t.storefront, 'rotation-one')).headers['idempotent-replayed']).toBe('true');

    const { run } = mailWorker(t);
    await run();
    const [told, ...more] = mailsTo(smtp, contacts.security);
    expect(more).toEqual([]);
    expect(told!.subject).toBe(`${partner}: ${t.storefront.environment} API credential rotated`);
    expect(told!.text).toContain('It was rotated with POST /credentials/rotate');
    expect(told!.text).toContain('If nobody at your organisation did this, tell the foundation at once');
    expect(told!.text).toContain(`${pair.clientId} replaces it`);
    expect(told!.text).toContain(pair.previousExpiresAt.slice(0, 10));
    expect(told!.text).not.toContain(pair.clientSecret);
    expect(mailsTo(smtp, contacts.technical)).toHaveLength(1);
    expect(mailsTo(smtp, contacts.finance)).toEqual([]);

    const second = await rotateAs(pair);
    expect(second.statusCode).toBe(201);
    const third = await rotateAs(second.json().data.items);
    expect(third.statusCode).toBe(429);
    await run();
    expect(mailsTo(smtp, contacts.security)).toHaveLength(2);
    const notices = await noticesOfKind(t, partner, 'rotation-started');
    expect(notices.map((n) => n.subject)).toEqual([
      `${pair.clientId} → ${second.json().data.items.clientId} (by the partner)`,
      `${t.storefront.clientId} → ${pair.clientId} (by the partner)`,
    ]);
  });
});
