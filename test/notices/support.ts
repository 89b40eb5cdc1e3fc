import { mailPolicy } from '../../src/config/mail.js';
import { mailContent } from '../../src/services/mail/contents.js';
import { MailDeliveryWorker } from '../../src/services/mail/worker.js';
import { PartnerNoticesWorker } from '../../src/services/notices/worker.js';
import type { OperatorContext } from '../../src/services/operators/context.js';
import { addContact } from '../../src/services/operators/partner-contacts.js';
import { listNotices } from '../../src/services/operators/partner-notices.js';
import type { TestApp } from '../helpers/test-app.js';
import { uniqueEmail, type SmtpServer } from '../receipts/support.js';

/** An operator acting on the test app's database at the test clock's time. */
export const operator = (t: TestApp, name = 'alice'): OperatorContext => ({
  db: t.db,
  operator: name,
  now: t.clock.now,
});

/** One contact of each role at a partner, with addresses no other test uses. */
export async function contactsOf(t: TestApp, partner: string) {
  const add = async (role: 'technical' | 'finance' | 'security') => {
    const email = uniqueEmail(role);
    await addContact(operator(t), partner, { role, name: `${role} lead`, email });
    return email;
  };
  return { technical: await add('technical'), finance: await add('finance'), security: await add('security') };
}

/** The service's mail worker with every content the outbox holds (receipts and notices); `run()` drains it. */
export function mailWorker(t: TestApp) {
  const worker = new MailDeliveryWorker(t.jobQueue, t.database, mailPolicy(t.config), mailContent);
  return { worker, run: () => worker.runPending({ now: true }) };
}

/** The scheduled notices' worker as the registry builds it, on the test clock (and another instance's queue). */
export function noticesWorker(t: TestApp, queue = t.jobQueue) {
  return new PartnerNoticesWorker(
    queue,
    t.database,
    {
      periodDays: t.config.CREDENTIAL_ROTATION_PERIOD_DAYS,
      timeZone: t.config.FOUNDATION_TIME_ZONE,
      intervalSeconds: t.config.PARTNER_NOTICE_INTERVAL_SECONDS,
    },
    t.clock.now,
  );
}

/** The messages that reached the SMTP server for one address, in arrival order. */
export const mailsTo = (smtp: SmtpServer, address: string) =>
  smtp.arrived.filter((a) => a.envelopeTo.includes(address)).map((a) => a.mail);

/** A partner's notices of one kind, as operators list them. */
export async function noticesOfKind(t: TestApp, partner: string, kind: string) {
  return (await listNotices(operator(t), partner, 1000)).filter((n) => n.kind === kind);
}
