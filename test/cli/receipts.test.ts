import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { give, settle } from '../receipts/donations.js';
import { LIVE_ENV, mailWorker, pdfText, startSmtpServer, uniqueEmail, type SmtpServer } from '../receipts/support.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { cli, ok, type Cli } from './harness.js';

/**
 * fundraiser-admin receipts (docs/receipts.md, "Operators"): live receipts issued at settlement, then found, shown,
 * downloaded, resent, voided, exported for the auditor and summed up in statements, each audited.
 */
const OPERATOR = 'finance@foundation.example';
const FOUNDATION = 'Australian Sports Foundation Limited';
let smtp: SmtpServer;
let t: TestApp;
let run: Cli;
let dir: string;
const email = uniqueEmail('Cli.Donor');
const refs: string[] = [];
const numbers: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ env: { ...LIVE_ENV, SMTP_URL: smtp.url }, deps: { payments: noPaymentProvider } });
  run = cli({ database: t.database, now: t.clock.now, operator: OPERATOR, env: LIVE_ENV });
  dir = await mkdtemp(join(tmpdir(), 'receipts-cli-'));
  refs.push(await give(t, '25.00', { email, firstName: 'Cli', lastName: 'Donor' }));
  refs.push(await give(t, '40.00', { email, firstName: 'Cli', lastName: 'Donor' }));
  await settle(t, [
    { id: refs[0]!, amount: 25 },
    { id: refs[1]!, amount: 40 },
  ]);
  for (const ref of refs) numbers.push((await ok(run, 'receipts', 'find', '--donation', ref))[0].number);
  await mailWorker(t).run();
}, 180_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const mailsTo = () => smtp.arrived.filter((a) => a.envelopeTo.includes(email)).map((a) => a.mail);
const audited = (action: string) => ok(run, 'audit', 'list', '--action', action);

describe('fundraiser-admin receipts find | show | download', () => {
  it('finds by number, by donation and by e-mail in any case; one way at a time', async () => {
    const [byNumber] = await ok(run, 'receipts', 'find', '--number', numbers[0]!);
    expect(byNumber).toMatchObject({
      number: numbers[0],
      series: 'live',
      status: 'in force',
      amountCents: 2500,
      amountAud: '25.00',
      donationReferenceId: refs[0],
      donorName: 'Cli Donor',
      donorEmail: email,
      fundraiserName: 'Riverside Junior Football Club',
    });
    const byEmail = await ok(run, 'receipts', 'find', '--email', email.toUpperCase());
    expect(byEmail.map((r: { number: string }) => r.number).sort()).toEqual([...numbers].sort());
    expect(await ok(run, 'receipts', 'find', '--number', '2026-27-999999')).toEqual([]);

    const both = await run('receipts', 'find', '--number', numbers[0]!, '--email', email);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('Find receipts by one of');
    const searches = await audited('receipt.view');
    expect(searches.some((e: { details: { by: string } }) => e.details.by === 'email')).toBe(true);
    expect(JSON.stringify(searches)).not.toContain(email);
  });

  it("shows a receipt with its donation's messages, and audits the view", async () => {
    const shown = await ok(run, 'receipts', 'show', numbers[0]!);
    expect(shown.receipt).toMatchObject({ number: numbers[0], status: 'in force', replacesNumber: null });
    expect(shown.messages).toEqual([expect.objectContaining({ kind: 'receipt', status: 'sent', attempts: 1 })]);
    const text = await run('receipts', 'show', numbers[0]!);
    expect(text.stdout).toContain('Riverside Junior Football Club (10000001)');
    const views = await ok(run, 'audit', 'list', '--action', 'receipt.view', '--subject', numbers[0]!);
    expect(views[0]).toMatchObject({ actor: OPERATOR, subject: numbers[0] });
    const unknown = await run('receipts', 'show', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No receipt numbered "nope"');
  });

  it('downloads the PDF the donor got to a file, never over an existing one', async () => {
    const file = join(dir, 'first.pdf');
    const written = await ok(run, 'receipts', 'download', numbers[0]!, '--out', file);
    expect(written).toMatchObject({ file });
    const text = await pdfText(await readFile(file));
    for (const field of [FOUNDATION, numbers[0]!, 'Cli Donor', '$25.00 AUD']) expect(text).toContain(field);
    const again = await run('receipts', 'download', numbers[0]!, '--out', file);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('the file exists');
    expect(await audited('receipt.download')).toHaveLength(1);
  });
});

describe('fundraiser-admin receipts resend | void', () => {
  it('resends a receipt in force through the outbox', async () => {
    const before = mailsTo().length;
    expect(await ok(run, 'receipts', 'resend', numbers[1]!)).toMatchObject({ number: numbers[1] });
    await mailWorker(t).run();
    const sent = mailsTo().slice(before);
    expect(sent.map((m) => m.subject)).toEqual([`Tax receipt ${numbers[1]} from ${FOUNDATION}`]);
    expect(await audited('receipt.resend')).toEqual([expect.objectContaining({ subject: numbers[1] })]);
  });

  it('voids with a reason, tells the donor, and refuses to void or resend it again', async () => {
    const before = mailsTo().length;
    const missing = await run('receipts', 'void', numbers[0]!, '--reason', '  ');
    expect(missing.code).toBe(1);
    const voided = await ok(run, 'receipts', 'void', numbers[0]!, '--reason', 'Issued to the wrong donor');
    expect(voided).toMatchObject({ status: 'void', voidReason: 'Issued to the wrong donor', voidedBy: OPERATOR });
    await mailWorker(t).run();
    const notice = mailsTo().slice(before);
    expect(notice.map((m) => m.subject)).toEqual([`Receipt ${numbers[0]} is void (${FOUNDATION})`]);
    expect(notice[0]!.text).toContain('receipted in error');

    const twice = await run('receipts', 'void', numbers[0]!, '--reason', 'again');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(`already voided by ${OPERATOR}`);
    const resend = await run('receipts', 'resend', numbers[0]!);
    expect(resend.code).toBe(1);
    expect(resend.stderr).toContain('is void');
    expect(await audited('receipt.void')).toEqual([
      expect.objectContaining({
        subject: numbers[0],
        details: expect.objectContaining({ reason: 'Issued to the wrong donor' }),
      }),
    ]);
  });
});

describe('fundraiser-admin receipts export | statement | outbox', () => {
  it("exports a year's register as CSV, in number order, void receipts with why", async () => {
    const year = numbers[0]!.slice(0, 7);
    const result = await run('receipts', 'export', '--year', year);
    expect(result.code).toBe(0);
    const rows = parse<Record<string, string>>(result.stdout, { columns: true });
    expect(rows.map((r) => r.number)).toEqual([...numbers].sort());
    const first = rows.find((r) => r.number === numbers[0])!;
    expect(first).toMatchObject({
      status: 'void',
      voidReason: 'Issued to the wrong donor',
      voidedBy: OPERATOR,
      amountAud: '25.00',
      donationReferenceId: refs[0],
      issueReason: 'settled',
    });
    expect(result.stdout.split('\r\n')[0]).toBe(
      'number,financialYear,sequence,status,issuedAt,issueReason,replaces,donationReferenceId,giftDate,amountAud,' +
        'donorName,donorBusinessName,donorEmail,fundraiserId,fundraiserName,voidedAt,voidReason,voidedBy',
    );
    const asJson = await ok(run, 'receipts', 'export', '--year', year);
    expect(asJson).toEqual(rows);
    const bad = await run('receipts', 'export', '--year', '2026');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"2026" is not a financial year: write it as 2026-27');
    expect(await audited('receipt.export')).toHaveLength(2);
  });

  it('issues the end-of-year statement on demand, once, and sends it again for one donor', async () => {
    // The demo donations are dated 21 November 2026: financial year 2026-27.
    expect(await ok(run, 'receipts', 'statement', '--year', '2026-27')).toEqual({ issued: 1, resent: 0 });
    expect(await ok(run, 'receipts', 'statement', '--year', '2026-27')).toEqual({ issued: 0, resent: 0 });
    expect(await ok(run, 'receipts', 'statement', '--year', '2026-27', '--email', email)).toEqual({
      issued: 0,
      resent: 1,
    });
    const waiting = await ok(run, 'receipts', 'outbox', '--status', 'pending');
    expect(waiting.messages.filter((m: { kind: string }) => m.kind === 'receipt-statement')).toHaveLength(2);
    await mailWorker(t).run();
    const statements = mailsTo().filter((m) => m.subject?.includes('financial year 2026-27'));
    expect(statements).toHaveLength(2);
    const text = await pdfText(statements[0]!.attachments[0]!.content);
    expect(text).toContain(numbers[1]);
    expect(text).not.toContain(numbers[0]);
    expect(text).toContain('Total of gifts: $40.00 AUD');
    expect(await audited('receipt.statement')).toHaveLength(3);
  });

  it('lists the outbox by status, with what failed and why', async () => {
    smtp.rejectWith(550);
    expect(await ok(run, 'receipts', 'resend', numbers[1]!)).toMatchObject({ number: numbers[1] });
    await mailWorker(t).run();
    smtp.rejectWith(null);
    const failed = await ok(run, 'receipts', 'outbox', '--status', 'failed');
    expect(failed.messages).toEqual([
      expect.objectContaining({ kind: 'receipt', status: 'failed', attempts: 1, about: `donation:${refs[1]}` }),
    ]);
    expect(failed.messages[0].last_error).toMatch(/^SMTP 550/);
    expect(failed.counts.failed).toBe(1);
    const text = await run('receipts', 'outbox');
    expect(text.stdout).toContain('SMTP 550');
    // The sent are counted over the last days only: their total is the whole history (decision 0074).
    expect(text.stdout).toMatch(/; \d+ sent in the last 7 days\./);
    const bad = await run('receipts', 'outbox', '--status', 'lost');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"lost" is not a status');
  });
});

describe('fundraiser-admin receipts correct', () => {
  it('voids the receipt and issues another naming the corrected donor, sent to the corrected address only', async () => {
    const wrong = uniqueEmail('typo');
    const right = uniqueEmail('fixed');
    const ref = await give(t, '18.00', { email: wrong, firstName: 'Jon', lastName: 'Smiht' });
    await settle(t, [{ id: ref, amount: 18 }]);
    await mailWorker(t).run();
    const [old] = await ok(run, 'receipts', 'find', '--donation', ref);
    const corrected = await ok(
      run,
      'receipts',
      'correct',
      old.number,
      '--first-name',
      'John',
      '--last-name',
      'Smith',
      '--business-name',
      'Smith Plumbing Pty Ltd',
      '--email',
      right,
      '--reason',
      'Donor rang: name misspelt, new address',
    );
    expect(corrected).toMatchObject({
      status: 'in force',
      replacesNumber: old.number,
      issueReason: 'donor details corrected',
      donorName: 'John Smith',
      donorBusinessName: 'Smith Plumbing Pty Ltd',
      donorEmail: right,
      amountCents: 1800,
    });
    const [first, second] = await ok(run, 'receipts', 'find', '--donation', ref);
    expect(first).toMatchObject({ number: old.number, status: 'void', voidedBy: OPERATOR });
    expect(second.number).toBe(corrected.number);

    const before = smtp.arrived.filter((a) => a.envelopeTo.includes(wrong)).length;
    await mailWorker(t).run();
    expect(smtp.arrived.filter((a) => a.envelopeTo.includes(wrong))).toHaveLength(before);
    const [mail, ...more] = smtp.arrived.filter((a) => a.envelopeTo.includes(right)).map((a) => a.mail);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`Tax receipt ${corrected.number} from ${FOUNDATION}`);
    const text = await pdfText(mail!.attachments[0]!.content);
    expect(text).toContain('Smith Plumbing Pty Ltd (given by John Smith)');
    expect(text).toMatch(new RegExp(`Replaces receipt:\\s+${old.number}`));

    const again = await run(
      'receipts',
      'correct',
      old.number,
      '--first-name',
      'A',
      '--last-name',
      'B',
      '--email',
      right,
      '--reason',
      'x',
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is void');
    const bad = await run(
      'receipts',
      'correct',
      corrected.number,
      '--first-name',
      'A',
      '--last-name',
      'B',
      '--email',
      'nope',
      '--reason',
      'x',
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"nope" is not an e-mail address');
    const entries = await audited('receipt.correct');
    expect(entries).toEqual([expect.objectContaining({ subject: old.number })]);
    expect(JSON.stringify(entries)).not.toContain(right);
  });
});
