import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailPolicy } from '../../src/config/mail.js';
import { MailDeliveryWorker } from '../../src/services/mail/worker.js';
import { receiptMailContent } from '../../src/services/receipts/content.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { give, receiptsOf, settle } from './donations.js';
import { LIVE_ENV, pdfText, startSmtpServer, uniqueEmail, type SmtpServer } from './support.js';

/** A live app, a local SMTP server and a mail worker with these mail settings, for the describe block calling it. */
function liveMailing(mail: { MAIL_CONCURRENCY: string; MAIL_BATCH_SIZE: string }) {
  const live = {} as { smtp: SmtpServer; t: TestApp; worker: MailDeliveryWorker };
  beforeAll(async () => {
    live.smtp = await startSmtpServer();
    live.t = await startTestApp({
      env: { ...LIVE_ENV, SMTP_URL: live.smtp.url, ...mail },
      deps: { payments: noPaymentProvider },
    });
    live.worker = new MailDeliveryWorker(
      live.t.jobQueue,
      live.t.database,
      mailPolicy(live.t.config),
      receiptMailContent,
    );
  });
  afterAll(async () => {
    live.worker?.stop();
    await live.t?.close();
    await live.smtp?.close();
  });
  return live;
}

/**
 * The mail worker takes MAIL_BATCH_SIZE jobs at a time, each batch prepared in one transaction
 * (services/mail/deliver.ts) and sent over MAIL_CONCURRENCY connections: each message of a batch keeps its own
 * content and its own outcome.
 */
describe('receipts mailed in batches (MAIL_CONCURRENCY=8, MAIL_BATCH_SIZE=4)', () => {
  const live = liveMailing({ MAIL_CONCURRENCY: '8', MAIL_BATCH_SIZE: '4' });

  const outboxRow = (email: string) =>
    live.t.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();

  it('sends each message once with its own receipt, and fails only the one the server refuses', async () => {
    const { t, smtp, worker } = live;
    const donors = [];
    for (let i = 0; i < 10; i++) {
      const email = uniqueEmail(`batch${i}`);
      donors.push({
        email,
        cents: 1000 + i * 100,
        ref: await give(t, `${10 + i}.00`, { email, lastName: `Donor${i}` }),
      });
    }
    await settle(
      t,
      donors.map((d) => ({ id: d.ref, amount: d.cents / 100 })),
    );
    const refused = donors[3]!;
    smtp.rejectWith(550, refused.email);
    expect(await worker.runPending()).toBe(10);
    smtp.rejectWith(null);

    for (const [i, donor] of donors.entries()) {
      const mails = smtp.arrived.filter((a) => a.envelopeTo.includes(donor.email));
      const row = await outboxRow(donor.email);
      if (donor === refused) {
        expect(mails).toEqual([]);
        expect(row).toMatchObject({ status: 'failed', attempts: 1 });
        expect(row.last_error).toMatch(/^SMTP 550/);
        continue;
      }
      const [receipt] = await receiptsOf(t, donor.ref);
      expect(mails).toHaveLength(1);
      const { mail } = mails[0]!;
      expect(mail.subject).toBe(`Tax receipt ${receipt!.number} from Australian Sports Foundation Limited`);
      expect(mail.text).toContain(`Amount of gift: $${10 + i}.00 AUD`);
      expect(mail.attachments.map((a) => a.filename)).toEqual([`receipt-${receipt!.number}.pdf`]);
      const text = await pdfText(mail.attachments[0]!.content);
      expect(text).toContain(receipt!.number);
      expect(text).toContain(`$${10 + i}.00 AUD`);
      expect(text).toContain(`Jo Donor${i}`);
      expect(row).toMatchObject({ status: 'sent', attempts: 1, delivered_to: donor.email, last_error: null });
    }
  });

  it('retries only the message refused for now; the others of its batch are not sent again', async () => {
    const { t, smtp, worker } = live;
    const [first, second] = [uniqueEmail('sent'), uniqueEmail('later')];
    const refs = [await give(t, '5.00', { email: first }), await give(t, '6.00', { email: second })];
    await settle(t, [
      { id: refs[0]!, amount: 5 },
      { id: refs[1]!, amount: 6 },
    ]);
    smtp.rejectWith(451, second);
    expect(await worker.runPending()).toBe(2);
    smtp.rejectWith(null);
    expect(await outboxRow(second)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await outboxRow(second)).last_error).toMatch(/^SMTP 451/);

    expect(await worker.runPending({ now: true })).toBe(1);
    expect(smtp.arrived.filter((a) => a.envelopeTo.includes(first))).toHaveLength(1);
    expect(smtp.arrived.filter((a) => a.envelopeTo.includes(second))).toHaveLength(1);
    expect(await outboxRow(second)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
  });
});

describe('a batch larger than the connections (MAIL_CONCURRENCY=2, MAIL_BATCH_SIZE=25)', () => {
  const live = liveMailing({ MAIL_CONCURRENCY: '2', MAIL_BATCH_SIZE: '25' });

  it('sends every message of the batch once, never over more than two connections at once', async () => {
    const { t, smtp, worker } = live;
    const emails = Array.from({ length: 12 }, (_, i) => uniqueEmail(`wide${i}`));
    const refs: string[] = [];
    for (const email of emails) refs.push(await give(t, '7.00', { email }));
    await settle(
      t,
      refs.map((id) => ({ id, amount: 7 })),
    );
    expect(await worker.runPending()).toBe(12);
    for (const email of emails) {
      expect(smtp.arrived.filter((a) => a.envelopeTo.includes(email))).toHaveLength(1);
      const row = await t.db
        .selectFrom('mail_outbox')
        .select(['status', 'attempts'])
        .where('recipient', '=', email)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'sent', attempts: 1 });
    }
    expect(smtp.peak.connections).toBeLessThanOrEqual(2);
    expect(smtp.peak.receiving).toBeLessThanOrEqual(2);
  });
});
