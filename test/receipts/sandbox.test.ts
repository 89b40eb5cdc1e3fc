import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { HELD_OUTSIDE_PRODUCTION, mailPolicy } from '../../src/config/mail.js';
import { MAIL_DELIVERY_QUEUE } from '../../src/infrastructure/queue/queues.js';
import { MailDeliveryWorker } from '../../src/services/mail/worker.js';
import { receiptMailContent } from '../../src/services/receipts/content.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitUntil } from '../reconciliation/support.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { give, settle } from './donations.js';
import { LIVE_ENV, mailWorker, pdfText, startSmtpServer, uniqueEmail, type SmtpServer } from './support.js';

const QA_INBOX = 'qa-inbox@foundation.test';
const SAMPLE = 'SAMPLE — NOT A TAX RECEIPT';

describe('GET /sandbox/receipts: a partner reads its sample receipts as the donor would get them', () => {
  let smtp: SmtpServer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_REDIRECT_TO: QA_INBOX } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const read = (reference: string, as?: TestApp['registration']) =>
    t.get('/sandbox/receipts', { query: { donationReferenceId: reference }, ...(as ? { as } : {}) });

  it('answers the sample receipt, its e-mail and its PDF, and mails it only to the QA inbox', async () => {
    const email = uniqueEmail('sandbox');
    const id = await give(t, '20.50', { email, firstName: 'Sam', lastName: 'Tester' });
    const before = await read(id);
    expect(before.statusCode).toBe(200);
    expect(before.json().data.items).toEqual({ donationReferenceId: id, receipts: [], messages: [] });

    await settle(t, [{ id, amount: 20.5 }]);
    const correlationId = randomUUID();
    const response = await t.get('/sandbox/receipts', { query: { donationReferenceId: id }, correlationId });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-correlation-id']).toBe(correlationId);
    const body = response.json();
    expect(body).toMatchObject({ correlationId, method: '/sandbox/receipts' });
    const { receipts, messages } = body.data.items;
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ status: 'in force', amount: '20.50', issueReason: 'settled', replaces: null });
    expect(receipts[0].number).toMatch(/^SAMPLE-\d{4}-\d{2}-\d{6}$/);
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message).toMatchObject({ kind: 'receipt', status: 'pending', to: email });
    expect(message.subject).toBe(`${SAMPLE} — Tax receipt ${receipts[0].number} from Sample Sports Foundation Ltd`);
    expect(message.text).toContain('Amount of gift: $20.50 AUD');
    expect(message.html).toContain(receipts[0].number);
    expect(message.attachments).toHaveLength(1);
    const pdf = Buffer.from(message.attachments[0].contentBase64, 'base64');
    const text = await pdfText(pdf);
    for (const field of [SAMPLE, receipts[0].number, 'Sam Tester', '$20.50 AUD', 'Riverside Junior Football Club'])
      expect(text).toContain(field);

    await mailWorker(t).run();
    const arrived = smtp.arrived.filter((a) => a.mail.subject === message.subject);
    expect(arrived.map((a) => a.envelopeTo)).toEqual([[QA_INBOX]]);
    expect(smtp.arrived.some((a) => a.envelopeTo.includes(email))).toBe(false);
    const after = (await read(id)).json().data.items.messages;
    expect(after).toMatchObject([{ status: 'sent', subject: message.subject, text: message.text }]);
  });

  it("answers another partner's donation exactly like an unknown one", async () => {
    const id = await give(t, '10.00', { email: uniqueEmail() });
    await settle(t, [{ id, amount: 10 }]);
    const strip = (r: Awaited<ReturnType<typeof read>>) => {
      const { correlationId: _c, error, ...rest } = r.json();
      return { status: r.statusCode, ...rest, error: { ...error, timeStamp: undefined, cause: undefined } };
    };
    const theirs = await read(id, t.registration);
    const unknown = await read('DON-NOSUCHDONATION', t.registration);
    expect(theirs.statusCode).toBe(404);
    expect(strip(theirs)).toEqual(strip(unknown));
    expect(theirs.json().error.cause).toBe(`No donation with reference id ${id}`);
    expect(theirs.json().error.code).toBe('FUNDRAISER:NOT_FOUND');
  });

  it('is documented as an extension of the contract, in the sandbox tag', async () => {
    const doc = (await t.get('/openapi.json')).json();
    const operation = doc.paths['/sandbox/receipts'].get;
    expect(operation).toMatchObject({ operationId: 'getSandboxReceipts', tags: ['sandbox'] });
    expect(operation['x-extension']).toMatch(/^Not in the contract/);
  });

  it('names the missing or bad field in a 400', async () => {
    const missing = await t.get('/sandbox/receipts');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.cause).toContain('donationReferenceId');
    const empty = await t.get('/sandbox/receipts', { query: { donationReferenceId: '' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.cause).toContain('donationReferenceId');
  });
});

describe('outside production nothing is sent to a donor', () => {
  let smtp: SmtpServer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('holds every message when no QA inbox is set, though SMTP_URL is', async () => {
    const email = uniqueEmail('held');
    const id = await give(t, '15.00', { email });
    await settle(t, [{ id, amount: 15 }]);
    await mailWorker(t).run();
    expect(smtp.arrived).toEqual([]);
    const [message] = (await t.get('/sandbox/receipts', { query: { donationReferenceId: id } })).json().data.items
      .messages;
    expect(message).toMatchObject({ kind: 'receipt', status: 'held', to: email });
    expect(message.subject.startsWith(SAMPLE)).toBe(true);
  });

  it('writes the messages of a settlement held, with no delivery job; an instance able to send queues and sends them', async () => {
    const email = uniqueEmail('released');
    const id = await give(t, '16.00', { email });
    await settle(t, [{ id, amount: 16 }]);
    const row = await t.db
      .selectFrom('mail_outbox')
      .select(['id', 'status', 'last_error', 'attempts'])
      .where('recipient', '=', email)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'held', attempts: 0, last_error: HELD_OUTSIDE_PRODUCTION });
    const jobs = await sql<{ n: number }>`
      select count(*)::int as n from pgboss.job where name = ${MAIL_DELIVERY_QUEUE} and data->>'messageId' = ${row.id}`.execute(
      t.db,
    );
    expect(jobs.rows[0]!.n).toBe(0);

    const policy = mailPolicy({ ...t.config, MAIL_REDIRECT_TO: QA_INBOX });
    const worker = new MailDeliveryWorker(t.jobQueue, t.database, policy, receiptMailContent);
    try {
      await worker.start();
      await waitUntil(async () => smtp.arrived.some((a) => a.mail.text?.includes('$16.00')), {
        timeoutMs: 30_000,
        what: 'the released message to arrive',
      });
    } finally {
      worker.stop();
    }
    expect(smtp.arrived.filter((a) => a.mail.text?.includes('$16.00')).map((a) => a.envelopeTo)).toEqual([[QA_INBOX]]);
  });
});

describe('GET /sandbox/receipts in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: LIVE_ENV, deps: { payments: noPaymentProvider } });
  });
  afterAll(() => t?.close());

  it('is not served (404), like every sandbox route', async () => {
    const response = await t.get('/sandbox/receipts', { query: { donationReferenceId: 'DON-ANY' } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('FUNDRAISER:NOT_FOUND');
  });
});
