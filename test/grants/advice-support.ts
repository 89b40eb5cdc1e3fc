import { mailPolicy } from '../../src/config/mail.js';
import { advicePolicy, scheduleAdvices } from '../../src/services/grants/advice/issue.js';
import { GrantAdvicesWorker } from '../../src/services/grants/advice/worker.js';
import { mailContent } from '../../src/services/mail/contents.js';
import { MailDeliveryWorker } from '../../src/services/mail/worker.js';
import type { TestApp } from '../helpers/test-app.js';

/** The advices' worker and the mail worker of a test app, as createContext builds them. */
export function grantWorkers(t: TestApp) {
  const advices = new GrantAdvicesWorker(t.jobQueue, t.database, advicePolicy(t.config), t.clock.now);
  const mail = new MailDeliveryWorker(t.jobQueue, t.database, mailPolicy(t.config), mailContent);
  return {
    advices,
    mail,
    /** Enqueues a round's advices as marking it paid does, in a transaction of its own. */
    schedule: (roundId: string) => t.db.transaction().execute((trx) => scheduleAdvices(trx, roundId)),
    runAdvices: () => advices.runPending({ now: true }),
    deliver: () => mail.runPending({ now: true }),
    stop: () => mail.stop(),
  };
}

export const grantOf = (t: TestApp, id: string) =>
  t.db.selectFrom('grants').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export const adviceMessages = (t: TestApp) =>
  t.db.selectFrom('mail_outbox').selectAll().where('kind', '=', 'grant-advice').orderBy('seq').execute();

/** Production's settings for the grants (the foundation's bank for the ABA file), beside the receipts' live ones. */
export const GRANT_ABA_ENV = {
  GRANT_ABA_USER_NAME: 'SPORTS FOUNDATION LTD',
  GRANT_ABA_APCA_USER_ID: '301500',
  GRANT_ABA_BANK: 'CBA',
  GRANT_ABA_BSB: '062-111',
  GRANT_ABA_ACCOUNT: '10203040',
};
