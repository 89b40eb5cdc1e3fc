import type { Kysely } from 'kysely';
import { receiptPolicy } from '../../../config/receipts.js';
import { rctiNumber } from '../../../domain/grant-advice.js';
import type { DB } from '../../../infrastructure/db/schema.js';
import {
  insertAdviceMessages,
  lockGrantsToAdvise,
  markAdvised,
  takeRctiNumbers,
  type AdviceScope,
} from '../../../infrastructure/repositories/grant-advices.js';
import { issuerId, type IssuerTerms } from '../../../infrastructure/repositories/receipts.js';
import { enqueueJob, grantAdvicesJob } from '../../jobs/definitions.js';

/** Who issues advices and how they leave: the receipts' issuer terms, whether a sample, why mail is held (if so). */
export interface AdvicePolicy {
  issuer: IssuerTerms;
  sample: boolean;
  mailHeld: string | null;
}

export function advicePolicy(config: Parameters<typeof receiptPolicy>[0]): AdvicePolicy {
  const receipts = receiptPolicy(config);
  return {
    issuer: { ...receipts.issuer, minimumCents: receipts.minimumCents, timeZone: receipts.timeZone },
    sample: config.APP_ENV !== 'production',
    mailHeld: receipts.mailHeld,
  };
}

export interface AdviceReport {
  advised: number;
  rctis: number;
  messages: number;
}

/**
 * Issues the advices due in `scope` (docs/grants.md, "Advice and RCTI"), in one transaction: the paid grants not
 * advised yet whose club has a finance contact are locked; those of clubs registered for GST take the next RCTI
 * numbers (the series' row locked until commit: gapless, docs/decisions/0067-grant-advices-once-and-waiting.md);
 * each grant is marked advised under the foundation's issuer row; and a message per finance contact is written to
 * the outbox with its delivery job. A grant is advised once: a retried or concurrent run finds it done. A club
 * without a finance contact waits, listed for operators, until one is added (the daily reminders run advises it).
 */
export async function issueAdvices(
  db: Kysely<DB>,
  scope: AdviceScope,
  policy: AdvicePolicy,
  now: () => Date,
): Promise<AdviceReport> {
  return db.transaction().execute(async (trx) => {
    const grants = await lockGrantsToAdvise(trx, scope);
    if (grants.length === 0) return { advised: 0, rctis: 0, messages: 0 };
    const gst = grants.filter((g) => g.gst_registered).length;
    let next = gst > 0 ? await takeRctiNumbers(trx, gst) : 0;
    const advised = grants.map((g) => ({ id: g.id, rcti: g.gst_registered ? rctiNumber(next++) : null }));
    await markAdvised(trx, advised, { at: now(), issuerId: await issuerId(trx, policy.issuer), sample: policy.sample });
    const messages = await insertAdviceMessages(
      trx,
      advised.map((a) => a.id),
      policy.mailHeld,
    );
    return { advised: advised.length, rctis: gst, messages };
  });
}

/** Enqueues the advices of a round just marked paid, in the transaction that marks it (the job exists iff it commits). */
export function scheduleAdvices(trx: Kysely<DB>, roundId: string): Promise<string> {
  return enqueueJob(trx, grantAdvicesJob, { roundId });
}
