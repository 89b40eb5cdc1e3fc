import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emergencyRotateCredential,
  issuePartnerCredential,
  parseEnvironment,
  revokeCredential,
  rotateCredential,
} from '../../src/services/operators/credential-admin.js';
import { setPartnerStatus } from '../../src/services/operators/partners.js';
import { cli, ok, type Cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { LIVE_ENV, startSmtpServer, type SmtpServer } from '../receipts/support.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { contactsOf, mailsTo, mailWorker, noticesOfKind, noticesWorker, operator } from './support.js';

/**
 * Notices of a credential's life (docs/partners.md, "Notices") through a real SMTP server, in production (where
 * mail goes to the contacts themselves): each is sent once, to the contacts of its roles, the scheduled ones when
 * the test clock says they are due, however many instances look.
 */
const DAY = 86_400_000;
let smtp: SmtpServer;
let t: TestApp;
let run: Cli;
let mail: ReturnType<typeof mailWorker>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({
    env: { ...LIVE_ENV, SMTP_URL: smtp.url, CREDENTIAL_ROTATION_PERIOD_DAYS: '100' },
    deps: { payments: noPaymentProvider },
  });
  run = cli({ database: t.database, now: t.clock.now });
  mail = mailWorker(t);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
}, 60_000);

describe('an operator’s rotation, its overlap ending and the old pair stopping', () => {
  it('tells technical and security contacts of the rotation, technical of the end, both when it stops', async () => {
    const partner = t.storefront.partner;
    const contacts = await contactsOf(t, partner);
    const started = t.clock.now();
    const rotation = await rotateCredential(operator(t), t.storefront.clientId, 14);
    await mail.run();
    for (const to of [contacts.technical, contacts.security]) {
      const [message, ...more] = mailsTo(smtp, to);
      expect(more).toEqual([]);
      expect(message!.subject).toBe(`${partner}: ${rotation.previous.environment} API credential rotated`);
      expect(message!.text).toContain(`${rotation.issued.clientId} replaces it`);
      expect(message!.text).toContain(rotation.previous.expiresAt!.toISOString().slice(0, 10));
      expect(message!.text).not.toContain(rotation.issued.clientSecret);
    }
    expect(mailsTo(smtp, contacts.finance)).toEqual([]);

    // Not yet three days before the end: nothing is due.
    const workers = [noticesWorker(t), noticesWorker(t)];
    t.clock.current = new Date(started.getTime() + 10 * DAY);
    expect((await workers[0]!.run()).overlapEnding).toBe(0);

    // Three days before the end, two instances look at once: the partner is told once.
    t.clock.current = new Date(started.getTime() + 11 * DAY + 60_000);
    const reports = await Promise.all(workers.map((w) => w.run()));
    expect(reports.map((r) => r.overlapEnding).reduce((a, b) => a + b)).toBe(1);
    expect((await workers[1]!.run()).overlapEnding).toBe(0);
    await mail.run();
    const ending = mailsTo(smtp, contacts.technical).slice(1);
    expect(ending.map((m) => m.subject)).toEqual([
      `${partner}: old API credential stops on ${rotation.previous.expiresAt!.toISOString().slice(0, 10)}`,
    ]);
    expect(mailsTo(smtp, contacts.security)).toHaveLength(1);

    // Past the end: the old pair stopped, told once to technical and security.
    t.clock.current = new Date(started.getTime() + 14 * DAY + 60_000);
    const ended = await Promise.all(workers.map((w) => w.run()));
    expect(ended.map((r) => r.overlapEnded).reduce((a, b) => a + b)).toBe(1);
    await mail.run();
    for (const to of [contacts.technical, contacts.security]) {
      const last = mailsTo(smtp, to).at(-1)!;
      expect(last.subject).toBe(`${partner}: API credential ${t.storefront.clientId} stopped`);
      expect(last.text).toContain('The overlap of its rotation is over');
      expect(last.text).toContain(`Use ${rotation.issued.clientId}.`);
    }
    expect(mailsTo(smtp, contacts.technical)).toHaveLength(3);
    expect(mailsTo(smtp, contacts.security)).toHaveLength(2);

    // Operators see what was told, to whom and that it was delivered, newest first (CLI and service alike).
    const listed = await ok(run, 'partners', 'notices', partner);
    expect(listed.map((n: { kind: string }) => n.kind)).toEqual([
      'credential-revoked',
      'overlap-ending',
      'rotation-started',
    ]);
    expect(listed[2].messages.map((m: { recipient: string }) => m.recipient).sort()).toEqual(
      [contacts.technical, contacts.security].sort(),
    );
    for (const notice of listed)
      for (const message of notice.messages) expect(message).toMatchObject({ status: 'sent', lastError: null });
    const table = await run('partners', 'notices', partner);
    expect(table.stdout).toContain(`${contacts.technical}: sent`);
  });
});

describe('the scheduled (annual) rotation', () => {
  it('is announced to technical contacts 30 days before CREDENTIAL_ROTATION_PERIOD_DAYS, once', async () => {
    const partner = t.registration.partner;
    const contacts = await contactsOf(t, partner);
    const [credential] = await t.db
      .selectFrom('credentials')
      .select('created_at')
      .where('client_id', '=', t.registration.clientId)
      .execute();
    const issued = new Date(credential!.created_at);
    const worker = noticesWorker(t);

    t.clock.current = new Date(issued.getTime() + 69 * DAY);
    await worker.run();
    expect(await noticesOfKind(t, partner, 'rotation-due')).toEqual([]);

    // Due, but the partner is suspended: it is told once reactivated.
    t.clock.current = new Date(issued.getTime() + 70 * DAY + 60_000);
    await setPartnerStatus(operator(t), partner, 'suspended', 'unpaid invoice');
    await worker.run();
    expect(await noticesOfKind(t, partner, 'rotation-due')).toEqual([]);
    await setPartnerStatus(operator(t), partner, 'active');
    await Promise.all([worker.run(), noticesWorker(t).run()]);
    await worker.run();
    const due = await noticesOfKind(t, partner, 'rotation-due');
    expect(due).toHaveLength(1);
    expect(due[0]!.subject).toBe(
      `${t.registration.clientId} due on ${new Date(issued.getTime() + 100 * DAY).toISOString().slice(0, 10)}`,
    );
    await mail.run();
    const [message, ...more] = mailsTo(smtp, contacts.technical);
    expect(more).toEqual([]);
    expect(message!.subject).toContain(`${partner}: API credential rotation due on`);
    expect(message!.text).toContain('(every 100 days)');
    expect(mailsTo(smtp, contacts.security)).toEqual([]);
    expect(mailsTo(smtp, contacts.finance)).toEqual([]);
    // Operators' report of the pairs due reads the same setting.
    const reported = cli({ database: t.database, now: t.clock.now, env: { CREDENTIAL_ROTATION_PERIOD_DAYS: '100' } });
    const listed = await ok<{ clientId: string }[]>(reported, 'credentials', 'due', '--within', '30');
    expect(listed.map((c) => c.clientId)).toContain(t.registration.clientId);
  });
});

describe('an emergency rotation and a revocation', () => {
  it('tell technical and security contacts at once, each once', async () => {
    const partner = t.registration.partner;
    const contacts = await contactsOf(t, partner);
    const ops = operator(t);
    const pair = await issuePartnerCredential(ops, partner, parseEnvironment(t.registration.environment));
    const emergency = await emergencyRotateCredential(ops, pair.clientId, 'leaked in a log');
    await revokeCredential(ops, emergency.issued.clientId, 'partner offboarded');
    await mail.run();
    for (const to of [contacts.technical, contacts.security]) {
      // A batch's messages leave over several connections at once: their order of arrival is not theirs to keep.
      const subjects = mailsTo(smtp, to).map((m) => m.subject);
      expect(subjects.sort()).toEqual(
        [
          `${partner}: ${t.registration.environment} API credential revoked at once`,
          `${partner}: API credential ${emergency.issued.clientId} stopped`,
        ].sort(),
      );
    }
    const [told] = await noticesOfKind(t, partner, 'rotation-emergency');
    // The operator's reason stays in the audit log: it may say more than the partner should read.
    expect(JSON.stringify(told)).not.toContain('leaked in a log');
    expect(mailsTo(smtp, contacts.finance)).toEqual([]);
  });
});
