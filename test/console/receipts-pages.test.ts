import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailPolicy } from '../../src/config/mail.js';
import { listAudit } from '../../src/services/operators/audit.js';
import { MailDeliveryWorker } from '../../src/services/mail/worker.js';
import { receiptMailContent } from '../../src/services/receipts/content.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { give, receiptsOf, settle } from '../receipts/donations.js';
import { mailWorker, pdfText, startSmtpServer, uniqueEmail, type SmtpServer } from '../receipts/support.js';
import { createOperator, getPage, postForm, signIn } from './support.js';

/**
 * The console's receipts pages and mail outbox (docs/receipts.md, "Operators"; docs/console.md): search, view,
 * download, resend and void, every view audited; the register as CSV; statements on demand; messages held or failed
 * with why.
 */
const ADMIN = 'receipts-admin@foundation.example';
const VIEWER = 'receipts-viewer@foundation.example';
const QA_INBOX = 'qa@foundation.test';
let smtp: SmtpServer;
let t: TestApp;
let admin: { session: string; csrf: string };
let viewer: { session: string; csrf: string };
const email = uniqueEmail('console');
let ref = '';
let number = '';

const audited = (action: string, actor?: string) =>
  listAudit({ db: t.db, operator: 'test', now: t.clock.now }, { action, ...(actor ? { actor } : {}), limit: 50 });

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_REDIRECT_TO: QA_INBOX } });
  await createOperator(t, ADMIN, 'admin');
  await createOperator(t, VIEWER, 'viewer');
  admin = await signIn(t, ADMIN, '/console/receipts');
  viewer = await signIn(t, VIEWER, '/console/receipts');
  ref = await give(t, '33.00', { email, firstName: 'Console', lastName: 'Donor' });
  await settle(t, [{ id: ref, amount: 33 }]);
  number = (await receiptsOf(t, ref))[0]!.number;
}, 180_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('receipts in the console', () => {
  it('lets a viewer find, view and download a receipt, each audited, but offers no change', async () => {
    const found = await getPage(t, viewer.session, `/console/receipts?q=${encodeURIComponent(email)}`);
    expect(found.statusCode).toBe(200);
    expect(found.body).toContain(`href="/console/receipts/${number}"`);
    expect(found.body).toContain('Console Donor');
    const byDonation = await getPage(t, viewer.session, `/console/receipts?q=${ref}`);
    expect(byDonation.body).toContain(`href="/console/receipts/${number}"`);

    const page = await getPage(t, viewer.session, `/console/receipts/${number}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(email);
    expect(page.body).toContain('33.00');
    expect(page.body).toContain('Your role (viewer) can read but not change receipts.');
    expect(page.body).not.toContain('/void"');
    expect(page.body).not.toContain('/correct"');

    const pdf = await getPage(t, viewer.session, `/console/receipts/${number}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="receipt-${number}.pdf"`);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('SAMPLE — NOT A TAX RECEIPT');
    expect(text).toContain(number);

    const views = await audited('receipt.view', VIEWER);
    expect(views.map((e) => e.subject)).toEqual([number, ref, null]);
    expect(JSON.stringify(views)).not.toContain(email);
    expect(await audited('receipt.download', VIEWER)).toEqual([expect.objectContaining({ subject: number })]);

    const refused = await postForm(t, viewer.session, `/console/receipts/${number}/void`, {
      _csrf: viewer.csrf,
      reason: 'viewer tries',
    });
    expect(refused.statusCode).toBe(403);
  });

  it('lets an admin resend, then void with a reason; a void receipt offers nothing more', async () => {
    const resent = await postForm(t, admin.session, `/console/receipts/${number}/resend`, { _csrf: admin.csrf });
    expect(resent.statusCode).toBe(200);
    expect(resent.body).toContain(`Receipt ${number} is queued to its donor again.`);

    const blank = await postForm(t, admin.session, `/console/receipts/${number}/void`, {
      _csrf: admin.csrf,
      reason: ' ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('Say why the receipt is void');

    const voided = await postForm(t, admin.session, `/console/receipts/${number}/void`, {
      _csrf: admin.csrf,
      reason: 'Gift made by another person',
    });
    expect(voided.statusCode).toBe(200);
    expect(voided.body).toContain(`Receipt ${number} is void; its donor is told.`);
    expect(voided.body).toContain('Gift made by another person');
    expect(voided.body).not.toContain('/resend"');
    expect(await audited('receipt.void', ADMIN)).toEqual([
      expect.objectContaining({
        subject: number,
        details: expect.objectContaining({ reason: 'Gift made by another person' }),
      }),
    ]);
    expect(await audited('receipt.resend', ADMIN)).toHaveLength(1);

    const unknown = await getPage(t, admin.session, '/console/receipts/SAMPLE-2000-01-000001');
    expect(unknown.statusCode).toBe(404);
  });

  it('downloads the register of a year as CSV and issues statements on demand', async () => {
    const year = number.slice('SAMPLE-'.length, 'SAMPLE-'.length + 7);
    const csv = await getPage(t, viewer.session, `/console/receipts/register.csv?year=${year}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parse<Record<string, string>>(csv.body, { columns: true });
    expect(rows.find((r) => r.number === number)).toMatchObject({ status: 'void', voidedBy: ADMIN });
    const bad = await getPage(t, viewer.session, '/console/receipts/register.csv?year=last');
    expect(bad.statusCode).toBe(400);

    const other = uniqueEmail('statement');
    const id = await give(t, '12.00', { email: other });
    await settle(t, [{ id, amount: 12 }]);
    const issued = await postForm(t, admin.session, '/console/receipts/statements', {
      _csrf: admin.csrf,
      year: '2026-27',
    });
    expect(issued.statusCode).toBe(200);
    expect(issued.body).toContain('1 statement(s) issued and 0 sent again for 2026-27');
    const wrong = await postForm(t, admin.session, '/console/receipts/statements', { _csrf: admin.csrf, year: '2026' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('is not a financial year');
  });
});

describe('correcting a donor in the console', () => {
  it('voids the receipt and shows the one issued in its place, naming the corrected donor', async () => {
    const id = await give(t, '21.00', { email: uniqueEmail('wrong'), firstName: 'Ann', lastName: 'Smyth' });
    await settle(t, [{ id, amount: 21 }]);
    const old = (await receiptsOf(t, id))[0]!.number;
    const page = await getPage(t, admin.session, `/console/receipts/${old}`);
    expect(page.body).toContain(`action="/console/receipts/${old}/correct"`);
    const right = uniqueEmail('right');
    const fields = { _csrf: admin.csrf, firstName: 'Anne', lastName: 'Smith', email: right, reason: 'Donor wrote in' };
    const bad = await postForm(t, admin.session, `/console/receipts/${old}/correct`, { ...fields, email: 'anne' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('is not an e-mail address');

    const done = await postForm(t, admin.session, `/console/receipts/${old}/correct`, fields);
    expect(done.statusCode).toBe(303);
    const [voided, replacement] = await receiptsOf(t, id);
    expect(voided).toMatchObject({ number: old, voided_by: ADMIN });
    expect(replacement).toMatchObject({ donor_name: 'Anne Smith', donor_email: right, replaces_id: voided!.id });
    expect(done.headers.location).toBe(`/console/receipts/${replacement!.number}`);
    const shown = await getPage(t, admin.session, done.headers.location!);
    expect(shown.body).toContain('Anne Smith');
    expect(shown.body).toContain(`href="/console/receipts/${old}"`);
    expect(await audited('receipt.correct', ADMIN)).toEqual([expect.objectContaining({ subject: old })]);
  });
});

describe('the mail outbox in the console', () => {
  it('shows held and permanently failed messages with why', async () => {
    // Without SMTP_URL every waiting message is held, and says so.
    const unsent = new MailDeliveryWorker(
      t.jobQueue,
      t.database,
      mailPolicy(t.config),
      receiptMailContent,
      undefined,
      null,
    );
    await unsent.runPending({ now: true });
    const held = await getPage(t, viewer.session, '/console/mail?status=held');
    expect(held.statusCode).toBe(200);
    expect(held.body).toContain('SMTP_URL is not set: the message waits in the outbox');
    expect(held.body).toContain(`donation:${ref}`);

    // A mail server refusing the QA inbox for good fails the message at once, with its reply.
    const id = await give(t, '9.00', { email: uniqueEmail() });
    await settle(t, [{ id, amount: 9 }]);
    smtp.rejectWith(550);
    await mailWorker(t).run();
    smtp.rejectWith(null);
    const failed = await getPage(t, admin.session, '/console/mail?status=failed');
    expect(failed.body).toContain(`donation:${id}`);
    expect(failed.body).toMatch(/SMTP 550/);
    const overview = await getPage(t, admin.session, '/console/mail');
    expect(overview.body).toContain('Messages not sent, newest first');
    expect(overview.body).toContain(`donation:${id}`);
  });
});
