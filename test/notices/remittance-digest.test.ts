import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { LIVE_ENV, startSmtpServer, type SmtpServer } from '../receipts/support.js';
import { bankReference, donate, mixedBatch, postBatch } from '../reconciliation/support.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { contactsOf, mailsTo, mailWorker, noticesOfKind, noticesWorker } from './support.js';

/**
 * The daily digest of remittance batches completed with exceptions: after each day ends in FOUNDATION_TIME_ZONE
 * (Australia/Sydney, UTC+11 in November), the finance contacts get one message for the day with its exceptions as
 * CSV, once, however many instances look.
 */
let smtp: SmtpServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ env: { ...LIVE_ENV, SMTP_URL: smtp.url }, deps: { payments: noPaymentProvider } });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
}, 60_000);

const completedAt = (batchId: string, at: string) =>
  t.db
    .updateTable('remittance_batches')
    .set({ completed_at: new Date(at) })
    .where('id', '=', batchId)
    .execute();

describe('the remittance exceptions digest', () => {
  it('mails each day’s exceptions to finance contacts once, as CSV, after the day ends', async () => {
    const partner = t.storefront.partner;
    const contacts = await contactsOf(t, partner);
    const mixed = await postBatch(t, (await mixedBatch(t)).entries);
    const nextDay = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 5, donationIds: ['DON-NOPE'] }]);
    const matched = await donate(t, '12.00');
    const clean = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 12, donationIds: [matched] }]);
    await t.reconcile();
    const statuses = await t.db.selectFrom('remittance_batches').select(['id', 'status']).execute();
    expect(Object.fromEntries(statuses.map((b) => [b.id, b.status]))).toMatchObject({
      [mixed]: 'completed_with_exceptions',
      [nextDay]: 'completed_with_exceptions',
      [clean]: 'completed',
    });
    // 20 November, 14:00 in Sydney; the other batch on 21 November.
    await completedAt(mixed, '2026-11-20T03:00:00Z');
    await completedAt(clean, '2026-11-20T04:00:00Z');
    await completedAt(nextDay, '2026-11-21T03:00:00Z');
    const worker = noticesWorker(t);

    // Five past midnight in Sydney: the day is over, but a batch finishing just before may not have committed.
    t.clock.current = new Date('2026-11-20T13:05:00Z');
    expect((await worker.run()).remittanceDigests).toBe(0);

    t.clock.current = new Date('2026-11-20T13:20:00Z');
    const reports = await Promise.all([worker.run(), noticesWorker(t).run()]);
    expect(reports.map((r) => r.remittanceDigests).reduce((a, b) => a + b)).toBe(1);
    expect((await worker.run()).remittanceDigests).toBe(0);

    await mailWorker(t).run();
    const [digest, ...more] = mailsTo(smtp, contacts.finance);
    expect(more).toEqual([]);
    expect(digest!.subject).toBe(`${partner}: remittance exceptions of 2026-11-20`);
    expect(digest!.text).toContain('1 remittance batch of');
    expect(digest!.text).toContain('with 4 exceptions');
    expect(digest!.attachments).toHaveLength(1);
    const csv = digest!.attachments[0]!;
    expect(csv.filename).toBe('remittance-exceptions-2026-11-20.csv');
    expect(csv.contentType).toBe('text/csv');
    const rows = parse<Record<string, string>>(csv.content, { columns: true });
    expect(rows.map((r) => [r.batchId, r.index, r.outcome])).toEqual([
      [mixed, '2', 'amount_mismatch'],
      [mixed, '3', 'already_settled'],
      [mixed, '4', 'duplicate_bank_reference'],
      [mixed, '6', 'unknown_donation'],
    ]);
    expect(mailsTo(smtp, contacts.technical)).toEqual([]);
    expect(mailsTo(smtp, contacts.security)).toEqual([]);

    // The next day's digest holds the next day's batch only.
    t.clock.current = new Date('2026-11-21T13:20:00Z');
    expect((await worker.run()).remittanceDigests).toBe(1);
    await mailWorker(t).run();
    const next = mailsTo(smtp, contacts.finance)[1]!;
    expect(next.subject).toBe(`${partner}: remittance exceptions of 2026-11-21`);
    const nextRows = parse<Record<string, string>>(next.attachments[0]!.content, { columns: true });
    expect(nextRows.map((r) => [r.batchId, r.outcome])).toEqual([[nextDay, 'unknown_donation']]);

    const notices = await noticesOfKind(t, partner, 'remittance-exceptions');
    expect(notices.map((n) => n.subject)).toEqual([
      '2026-11-21: 1 batch(es), 1 exception(s)',
      '2026-11-20: 1 batch(es), 4 exception(s)',
    ]);
    expect(notices[1]!.messages).toEqual([expect.objectContaining({ recipient: contacts.finance, status: 'sent' })]);
  });
});
