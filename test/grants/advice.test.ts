import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ok } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { LIVE_ENV, pdfText, startSmtpServer, type SmtpServer } from '../receipts/support.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { paidRound } from './paid-grant-fixture.js';
import { adviceMessages, GRANT_ABA_ENV, grantOf, grantWorkers } from './advice-support.js';

/**
 * A paid round's advices (docs/grants.md, "Advice and RCTI"): issued once per grant by the grant-advices job,
 * mailed through the outbox to each club's finance contact with the PDF rendered at sending; a club registered for
 * GST gets an RCTI; a club without a finance contact waits.
 */
describe('remittance advices of a paid round', () => {
  let t: TestApp;
  let smtp: SmtpServer;
  let workers: ReturnType<typeof grantWorkers>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({
      env: { ...LIVE_ENV, ...GRANT_ABA_ENV, SMTP_URL: smtp.url },
      deps: { payments: noPaymentProvider },
    });
    workers = grantWorkers(t);
  });
  afterAll(async () => {
    workers?.stop();
    await t?.close();
    await smtp?.close();
  });

  it('advises each paid grant once, with its donations, named only where the donor agreed', async () => {
    const round = await paidRound(t, [
      {
        name: 'Riverside Rowing Club',
        gst: true,
        abn: '51824753556',
        finance: ['treasurer@riverside.test'],
        donations: [
          { cents: 5000, shared: true, first: 'Alice', last: 'Named' },
          { cents: 2500, first: 'Bob', last: 'Private' },
        ],
        recoveries: [700],
        feeCents: 150,
      },
      { name: 'Hillside Hockey', finance: ['money@hillside.test'], donations: [{ cents: 4000 }] },
      { name: 'Quiet Quoits', donations: [{ cents: 3000 }] },
    ]);
    const [gst, plain, waiting] = round.grants;
    // The round's paid hook enqueued its advices' job.
    expect(await workers.runAdvices()).toBe(1);

    const rows = await Promise.all(round.grants.map((g) => grantOf(t, g.id)));
    const [gstRow, plainRow, waitingRow] = [rows[0]!, rows[1]!, rows[2]!];
    expect(gstRow.rcti_number).toBe('RCTI-000001');
    expect(gstRow.advised_at).not.toBeNull();
    expect(plainRow.rcti_number).toBeNull();
    expect(plainRow.advised_at).not.toBeNull();
    expect(waitingRow.advised_at).toBeNull();
    const messages = await adviceMessages(t);
    expect(messages.map((m) => [m.recipient, m.about]).sort()).toEqual([
      ['money@hillside.test', `grant:${plain!.lodgementReference}`],
      ['treasurer@riverside.test', `grant:${gst!.lodgementReference}`],
    ]);

    // Run again (a retried job, another instance): nothing more is issued or written.
    await workers.schedule(round.roundId);
    expect(await workers.runAdvices()).toBe(1);
    expect(await adviceMessages(t)).toHaveLength(2);
    expect((await grantOf(t, gst!.id)).advised_at).toEqual(gstRow.advised_at);

    await workers.deliver();
    const arrived = smtp.arrived.filter((a) => a.envelopeTo.includes('treasurer@riverside.test'));
    expect(arrived).toHaveLength(1);
    const mail = arrived[0]!.mail;
    expect(mail.subject).toContain(gst!.lodgementReference);
    expect(mail.attachments).toHaveLength(1);
    const text = await pdfText(mail.attachments[0]!.content);
    expect(text).toContain('Recipient-created tax invoice');
    expect(text).toContain('RCTI-000001');
    expect(text).toContain('Riverside Rowing Club');
    expect(text).toContain(`member ${gst!.memberNumber}`);
    expect(text).toContain('51 824 753 556');
    expect(text).toContain('53 004 085 616');
    expect(text).toContain('The recipient and the supplier declare that this agreement applies to supplies');
    expect(text).toContain('GST: nil');
    expect(text).toContain('*****678');
    expect(text).not.toContain('12345678');
    expect(text).toContain(gst!.lodgementReference);
    expect(text).toContain('Alice Named');
    expect(text).not.toContain('Bob');
    expect(text).not.toContain('Private');
    expect(text).toContain('Anonymous donor');
    for (const reference of gst!.donationReferences) expect(text).toContain(reference);
    expect(text).toContain('$50.00');
    expect(text).toContain('$25.00');
    expect(text).toContain('-$7.00');
    expect(text).toContain('-$1.50');
    expect(text).toContain('$66.50 AUD');
    expect(text).toMatch(new RegExp(`Grant round:\\s+${round.number} of`));

    const plainMail = smtp.arrived.find((a) => a.envelopeTo.includes('money@hillside.test'))!.mail;
    const plainText = await pdfText(plainMail.attachments[0]!.content);
    expect(plainText).toContain('Remittance advice');
    expect(plainText).not.toContain('Recipient-created tax invoice');
    expect(plainText).not.toContain('RCTI');
    references.push(gst!.lodgementReference, waiting!.lodgementReference);
  });

  const references: string[] = [];
  it('gives operators the PDF, a copy on request, and refuses one that waits for a finance contact', async () => {
    const [sent, waiting] = references as [string, string];
    const env = { ...LIVE_ENV, ...GRANT_ABA_ENV, SMTP_URL: smtp.url };
    const run = cli({ database: t.database, now: t.clock.now, operator: 'ops@foundation.test', env });
    const out = join(await mkdtemp(join(tmpdir(), 'advice-')), 'advice.pdf');
    const shown = await ok(run, 'grants', 'advice', '--grant', sent, '--out', out);
    expect(shown).toMatchObject({ lodgementReference: sent, rctiNumber: 'RCTI-000001', status: 'paid' });
    expect(shown.financeContacts).toEqual(['treasurer@riverside.test']);
    expect(await pdfText(await readFile(out))).toContain('RCTI-000001');

    await ok(run, 'grants', 'advice', '--grant', sent, '--resend');
    const copies = (await adviceMessages(t)).filter((m) => m.about === `grant:${sent}`);
    expect(copies).toHaveLength(2);
    await workers.deliver();
    const arrived = smtp.arrived.filter((a) => a.envelopeTo.includes('treasurer@riverside.test'));
    expect(arrived).toHaveLength(2);
    // The copy is the same advice: the same number, the same lines (its PDF is made from the same rows).
    expect(await pdfText(arrived[1]!.mail.attachments[0]!.content)).toBe(
      await pdfText(arrived[0]!.mail.attachments[0]!.content),
    );

    const refused = await run('grants', 'advice', '--grant', waiting, '--resend');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('its club has no finance contact');
    const noPdf = await run('grants', 'advice', '--grant', waiting, '--out', `${out}.2`);
    expect(noPdf.stderr).toContain(`Grant ${waiting} has no advice yet`);
    const actions = await t.db
      .selectFrom('audit_log')
      .select(['action', 'subject'])
      .where('action', 'like', 'grant.advice%')
      .orderBy('id')
      .execute();
    expect(actions).toEqual([
      { action: 'grant.advice_download', subject: sent },
      { action: 'grant.advice_view', subject: sent },
      { action: 'grant.advice_send', subject: sent },
      { action: 'grant.advice_view', subject: sent },
    ]);
  });
});
