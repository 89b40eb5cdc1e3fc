import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentOf } from '../../src/services/receipts/content.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { give, receiptsOf, settle } from './donations.js';
import { LIVE_ENV, mailWorker, pdfText, startSmtpServer, uniqueEmail, type SmtpServer } from './support.js';

describe('a settled live donation is receipted once, with every field the ATO asks for', () => {
  let smtp: SmtpServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ env: { ...LIVE_ENV, SMTP_URL: smtp.url }, deps: { payments: noPaymentProvider } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('issues at settlement and mails the PDF to the donor, whose text holds every required field', async () => {
    const email = uniqueEmail('jo');
    const id = await give(t, '20.50', { email, firstName: 'Jo', lastName: 'Citizen', businessName: 'Citizen Pty Ltd' });
    expect(await receiptsOf(t, id)).toEqual([]);
    await settle(t, [{ id, amount: 20.5 }]);
    const [receipt, ...others] = await receiptsOf(t, id);
    expect(others).toEqual([]);
    expect(receipt!.number).toMatch(/^\d{4}-\d{2}-\d{6}$/);
    expect(receipt!.series).toBe('live');

    const { run } = mailWorker(t);
    await run();
    const mails = smtp.arrived.filter((a) => a.envelopeTo.includes(email));
    expect(mails).toHaveLength(1);
    const { mail } = mails[0]!;
    expect(mail.subject).toBe(`Tax receipt ${receipt!.number} from Australian Sports Foundation Limited`);
    expect(mail.text).toContain('Amount of gift: $20.50 AUD');
    expect(mail.html).toContain(receipt!.number);
    expect(mail.attachments).toHaveLength(1);
    const attachment = mail.attachments[0]!;
    expect(attachment.contentType).toBe('application/pdf');
    expect(attachment.filename).toBe(`receipt-${receipt!.number}.pdf`);

    const text = await pdfText(attachment.content);
    for (const field of [
      'Australian Sports Foundation Limited',
      'ABN 53 004 085 616',
      'The foundation is endorsed by the ATO as a deductible gift recipient (item 1).',
      receipt!.number,
      'Citizen Pty Ltd (given by Jo Citizen)',
      '$20.50 AUD',
      '21 November 2026',
      'Riverside Junior Football Club',
      'No goods, services or other material benefit were received in return for this gift',
    ])
      expect(text).toContain(field);
    expect(text).not.toContain('SAMPLE');
    const row = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', '=', email)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, delivered_to: email, kind: 'receipt' });
  });

  it('renders the same receipt to the same bytes every time', async () => {
    const id = await give(t, '5.00', { email: uniqueEmail() });
    await settle(t, [{ id, amount: 5 }]);
    const [receipt] = await receiptsOf(t, id);
    const ref = { type: 'receipt' as const, id: receipt!.id };
    const [a, b] = [await attachmentOf(t.db, ref), await attachmentOf(t.db, ref)];
    expect(a.content.equals(b.content)).toBe(true);
  });

  it('receipts nothing under RECEIPT_MINIMUM (net), and nothing twice when a batch names a donation again', async () => {
    const small = await give(t, '1.99', { email: uniqueEmail() });
    const big = await give(t, '2.00', { email: uniqueEmail() });
    await settle(t, [
      { id: small, amount: 1.99 },
      { id: big, amount: 2 },
    ]);
    expect(await receiptsOf(t, small)).toEqual([]);
    expect(await receiptsOf(t, big)).toHaveLength(1);
    await settle(t, [{ id: big, amount: 2 }]);
    expect(await receiptsOf(t, big)).toHaveLength(1);
  });
});
