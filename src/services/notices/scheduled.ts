import type { Kysely } from 'kysely';
import { addDays, dateIn, startOfDate } from '../../domain/calendar-date.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  listCredentialListings,
  type CredentialListing,
} from '../../infrastructure/repositories/client-credentials.js';
import { batchesWithExceptions, exceptionCount } from '../../infrastructure/repositories/partner-notices.js';
import { noticeCredentialEnded } from './credentials.js';
import { overlapEndingMail, remittanceDigestMail, rotationDueMail } from './messages.js';
import { sendNotice } from './send.js';

const DAY_MS = 86_400_000;
/** A scheduled rotation is announced this long before it is due (docs/partners.md, "Notices"). */
const ROTATION_DUE_NOTICE_DAYS = 30;
/** The end of a rotation's overlap is announced this long before. */
const OVERLAP_ENDING_NOTICE_DAYS = 3;
/** An overlap that ended longer ago than this is not announced (a first start on an old database). */
const ENDED_LOOKBACK_DAYS = 7;
/** Days before yesterday whose digest is still sent if it was not (instances down over a night). */
const DIGEST_LOOKBACK_DAYS = 3;
/** A day's digest waits this long after midnight: a batch that completed just before it has committed by then. */
const DIGEST_GRACE_MS = 15 * 60_000;

export interface NoticeSchedule {
  /** CREDENTIAL_ROTATION_PERIOD_DAYS. */
  periodDays: number;
  /** FOUNDATION_TIME_ZONE: the days of the remittance digest. */
  timeZone: string;
}

export interface ScheduledReport {
  rotationDue: number;
  overlapEnding: number;
  overlapEnded: number;
  remittanceDigests: number;
}

/**
 * Sends every scheduled notice due at `now` and not sent yet. Each has a once-key and is written in a transaction
 * of its own, so a run that fails halfway, a retried run, or two instances running at once send each one once.
 */
export async function sendScheduledNotices(
  db: Kysely<DB>,
  now: Date,
  schedule: NoticeSchedule,
): Promise<ScheduledReport> {
  const report: ScheduledReport = { rotationDue: 0, overlapEnding: 0, overlapEnded: 0, remittanceDigests: 0 };
  const once = async (key: keyof ScheduledReport, send: (trx: Kysely<DB>) => Promise<unknown>) => {
    if (await db.transaction().execute(send)) report[key] += 1;
  };
  for (const credential of await listCredentialListings(db)) {
    // A suspended partner is told once it is reactivated (its keys are still unused then).
    if (credential.revokedAt || credential.partnerStatus !== 'active') continue;
    const due = dueCheck(credential, now, schedule.periodDays);
    if (due) await once(due.key, due.send);
  }
  const today = dateIn(now, schedule.timeZone);
  for (let back = DIGEST_LOOKBACK_DAYS + 1; back >= 1; back -= 1) {
    const date = addDays(today, -back);
    const to = startOfDate(addDays(date, 1), schedule.timeZone);
    if (now.getTime() < to.getTime() + DIGEST_GRACE_MS) continue;
    for (const { partnerId, batchIds } of await batchesWithExceptions(db, startOfDate(date, schedule.timeZone), to))
      await once('remittanceDigests', async (trx) => {
        const exceptions = await exceptionCount(trx, batchIds);
        return sendNotice(trx, {
          partnerId,
          kind: 'remittance-exceptions',
          subject: `${date}: ${batchIds.length} batch(es), ${exceptions} exception(s)`,
          onceKey: `remittance-exceptions:${partnerId}:${date}`,
          details: { batchIds, date },
          at: now,
          withExceptionsCsv: true,
          mail: (partner) => remittanceDigestMail(partner, { date, batches: batchIds.length, exceptions }),
        });
      });
  }
  return report;
}

/** The notice a credential in use is due, if any: its rotation coming, its overlap ending, or just ended. */
function dueCheck(
  c: CredentialListing,
  now: Date,
  periodDays: number,
): { key: keyof ScheduledReport; send: (trx: Kysely<DB>) => Promise<unknown> } | null {
  const change = {
    environment: c.environment,
    oldClientId: c.clientId,
    newClientId: c.replacedBy ?? '(none)',
    oldExpiresAt: c.expiresAt,
  };
  if (!c.expiresAt) {
    const dueAt = new Date(c.createdAt.getTime() + periodDays * DAY_MS);
    if (dueAt.getTime() - ROTATION_DUE_NOTICE_DAYS * DAY_MS > now.getTime()) return null;
    return {
      key: 'rotationDue',
      send: (trx) =>
        sendNotice(trx, {
          partnerId: c.partnerId,
          kind: 'rotation-due',
          subject: `${c.clientId} due on ${dueAt.toISOString().slice(0, 10)}`,
          onceKey: `rotation-due:${c.clientId}`,
          at: now,
          mail: (partner) => rotationDueMail(partner, { ...c, dueAt, periodDays }),
        }),
    };
  }
  const left = c.expiresAt.getTime() - now.getTime();
  if (left > OVERLAP_ENDING_NOTICE_DAYS * DAY_MS || left < -ENDED_LOOKBACK_DAYS * DAY_MS) return null;
  if (left > 0)
    return {
      key: 'overlapEnding',
      send: (trx) =>
        sendNotice(trx, {
          partnerId: c.partnerId,
          kind: 'overlap-ending',
          subject: `${c.clientId} stops on ${c.expiresAt!.toISOString().slice(0, 10)}`,
          onceKey: `overlap-ending:${c.clientId}`,
          at: now,
          mail: (partner) => overlapEndingMail(partner, change),
        }),
    };
  return {
    key: 'overlapEnded',
    send: (trx) => noticeCredentialEnded(trx, now, { ...c, at: c.expiresAt! }, 'overlap-ended'),
  };
}
