import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ok } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startSmtpServer, type SmtpServer } from '../receipts/support.js';
import { registerEndpoint, startReceiver, webhookWorker, type Receiver } from '../webhooks/support.js';
import { contactsOf, mailsTo, mailWorker, noticesOfKind } from './support.js';

/**
 * An endpoint disabled after failing for WEBHOOK_DISABLE_AFTER_SECONDS: the partner's technical contacts are told
 * once. Outside production (the receiver listens on 127.0.0.1, which production refuses) the message goes to the
 * QA inbox, MAIL_REDIRECT_TO, and never to the contact it is meant for.
 */
const QA_INBOX = 'qa-inbox@foundation.test';
let smtp: SmtpServer;
let receiver: Receiver;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startReceiver();
  t = await startTestApp({
    env: {
      SMTP_URL: smtp.url,
      MAIL_REDIRECT_TO: QA_INBOX,
      WEBHOOK_RETRY_SCHEDULE: '1,1',
      WEBHOOK_DISABLE_AFTER_SECONDS: '3600',
    },
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await smtp?.close();
}, 60_000);

describe('a webhook endpoint disabled after failing', () => {
  it('tells the technical contacts once, through the QA inbox outside production', async () => {
    const partner = t.storefront.partner;
    const contacts = await contactsOf(t, partner);
    receiver.respondWith(() => 503);
    const endpoint = await registerEndpoint(t, receiver.url);
    let clock = new Date();
    const worker = webhookWorker(t, { now: () => clock });

    await t.post(`/webhook-endpoints/${endpoint.id}/test`, undefined);
    expect(await worker.runPending({ now: true })).toBe(3);
    expect(await noticesOfKind(t, partner, 'webhook-disabled')).toEqual([]);

    // An hour of failures later, the next failing attempt disables it.
    clock = new Date(clock.getTime() + 3601_000);
    await t.post(`/webhook-endpoints/${endpoint.id}/test`, undefined);
    await worker.runPending({ now: true });
    expect((await t.get(`/webhook-endpoints/${endpoint.id}`)).json().data.items.status).toBe('disabled');

    await mailWorker(t).run();
    const [notice, ...more] = await noticesOfKind(t, partner, 'webhook-disabled');
    expect(more).toEqual([]);
    expect(notice!.subject).toBe(`${receiver.url} (${endpoint.id})`);
    expect(notice!.messages).toEqual([
      expect.objectContaining({ recipient: contacts.technical, status: 'sent', deliveredTo: QA_INBOX }),
    ]);
    expect(mailsTo(smtp, contacts.technical)).toEqual([]);
    const [arrived, ...others] = mailsTo(smtp, QA_INBOX);
    expect(others).toEqual([]);
    expect(arrived!.subject).toBe(`${partner}: webhook endpoint disabled`);
    expect(arrived!.text).toContain(`The webhook endpoint ${receiver.url} (${endpoint.id})`);
    expect(arrived!.text).toContain('every delivery failed for 1 hour (last: HTTP 503)');

    // The operator's view says where it went.
    const run = cli({ database: t.database });
    const listed = await ok(run, 'partners', 'notices', partner);
    expect(listed[0]).toMatchObject({ kind: 'webhook-disabled', roles: ['technical'] });
    expect((await run('partners', 'notices', partner)).stdout).toContain(`(delivered to ${QA_INBOX})`);
  });
});
