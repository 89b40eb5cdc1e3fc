import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { give, receiptsOf, settle } from './donations.js';
import { LIVE_ENV, mailWorker, pdfText, startSmtpServer, uniqueEmail, type SmtpServer } from './support.js';

describe('a reversal voids the receipt and tells the donor; a partial one reissues for the net amount', () => {
  let smtp: SmtpServer;
  let t: TestApp;
  const reverse = (id: string, amount: string) =>
    t.post(`/donations/${id}/reversals`, { amount, reason: 'refunded', transaction: { id: randomUUID() } });

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ env: { ...LIVE_ENV, SMTP_URL: smtp.url }, deps: { payments: noPaymentProvider } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('voids and reissues on a partial refund, then voids on the rest; every message reaches the donor', async () => {
    const email = uniqueEmail('refund');
    const id = await give(t, '50.00', { email });
    await settle(t, [{ id, amount: 50 }]);
    const [first] = await receiptsOf(t, id);
    // The worker renders each message when it sends it: these are sent before the next reversal voids them.
    await mailWorker(t).run();

    expect((await reverse(id, '20.00')).statusCode).toBe(201);
    const [voided, second] = await receiptsOf(t, id);
    expect(voided).toMatchObject({ id: first!.id, void_reason: 'reversed in part: refunded' });
    expect(voided!.voided_at).not.toBeNull();
    expect(Number(second!.amount_cents)).toBe(3000);
    expect(second).toMatchObject({ replaces_id: first!.id, voided_at: null });
    expect(second!.number).not.toBe(first!.number);
    await mailWorker(t).run();

    expect((await reverse(id, '30.00')).statusCode).toBe(201);
    const all = await receiptsOf(t, id);
    expect(all).toHaveLength(2);
    expect(all.every((r) => r.voided_at !== null)).toBe(true);

    await mailWorker(t).run();
    const mails = smtp.arrived.filter((a) => a.envelopeTo.includes(email)).map((a) => a.mail);
    const bySubject = new Map(mails.map((m) => [m.subject, m]));
    // The void notice and the reissued receipt of one reversal leave in the same run, in either order.
    expect([...bySubject.keys()].sort()).toEqual(
      [
        `Tax receipt ${first!.number} from Australian Sports Foundation Limited`,
        `Receipt ${first!.number} is void (Australian Sports Foundation Limited)`,
        `Tax receipt ${second!.number} from Australian Sports Foundation Limited`,
        `Receipt ${second!.number} is void (Australian Sports Foundation Limited)`,
      ].sort(),
    );
    expect(mails).toHaveLength(4);
    expect(mails[0]!.subject).toBe(`Tax receipt ${first!.number} from Australian Sports Foundation Limited`);
    const voidNotice = bySubject.get(`Receipt ${first!.number} is void (Australian Sports Foundation Limited)`);
    expect(voidNotice!.text).toContain('can no longer be used to claim a tax deduction');
    const reissuedMail = bySubject.get(`Tax receipt ${second!.number} from Australian Sports Foundation Limited`);
    const reissued = await pdfText(reissuedMail!.attachments[0]!.content);
    expect(reissued).toContain('$30.00 AUD');
    expect(reissued).toMatch(new RegExp(`Replaces receipt:\\s+${first!.number}`));
  });

  it('receipts a donation partly reversed before settlement for its net amount, and one reversed in full never', async () => {
    const partly = await give(t, '40.00', { email: uniqueEmail() });
    const fully = await give(t, '10.00', { email: uniqueEmail() });
    expect((await reverse(partly, '15.00')).statusCode).toBe(201);
    expect((await reverse(fully, '10.00')).statusCode).toBe(201);
    await settle(t, [
      { id: partly, amount: 25 },
      { id: fully, amount: 10 },
    ]);
    expect((await receiptsOf(t, partly)).map((r) => Number(r.amount_cents))).toEqual([2500]);
    expect(await receiptsOf(t, fully)).toEqual([]);
  });

  it('never edits a receipt: the register refuses any change but a void, and any delete', async () => {
    const id = await give(t, '12.00', { email: uniqueEmail() });
    await settle(t, [{ id, amount: 12 }]);
    const [receipt] = await receiptsOf(t, id);
    const edit = t.db.updateTable('receipts').set({ donor_name: 'Someone Else' }).where('id', '=', receipt!.id);
    await expect(edit.execute()).rejects.toThrow(/never edited/);
    await expect(t.db.deleteFrom('receipts').where('id', '=', receipt!.id).execute()).rejects.toThrow(/never deleted/);
  });
});
