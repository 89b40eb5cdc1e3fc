import type { Kysely } from 'kysely';
import { addDays, dateIn } from '../../../domain/calendar-date.js';
import { formatCents } from '../../../domain/money.js';
import { longDate } from '../../../domain/receipt.js';
import type { DB } from '../../../infrastructure/db/schema.js';
import {
  lockAcquittalsToRemind,
  markReminded,
  type AcquittalToRemind,
} from '../../../infrastructure/repositories/grant-acquittals.js';
import { enqueueMail } from '../../mail/outbox.js';

export interface ReminderTerms {
  /** ACQUITTAL_REMINDER_DAYS: how long before the due day the finance contact is reminded (0: never). */
  reminderDays: number;
  timeZone: string;
  foundation: string;
}

/**
 * Reminds the finance contacts of each club whose acquittal falls due within ACQUITTAL_REMINDER_DAYS (or is overdue
 * and was never reminded), once per acquittal: reminded_at is set in the transaction that writes the messages, and a
 * concurrent run skips the rows this one holds. Returns how many acquittals were reminded.
 */
export async function sendAcquittalReminders(db: Kysely<DB>, now: Date, terms: ReminderTerms): Promise<number> {
  if (terms.reminderDays <= 0) return 0;
  const today = dateIn(now, terms.timeZone);
  return db.transaction().execute(async (trx) => {
    const due = await lockAcquittalsToRemind(trx, addDays(today, terms.reminderDays));
    for (const acquittal of due)
      for (const email of acquittal.emails)
        await enqueueMail(trx, {
          kind: 'grant-acquittal-reminder',
          recipient: email,
          about: `grant:${acquittal.lodgement_reference}`,
          ...reminderMail(acquittal, today, terms.foundation),
        });
    await markReminded(
      trx,
      due.map((a) => a.grant_id),
      now,
    );
    return due.length;
  });
}

function reminderMail(a: AcquittalToRemind, today: string, foundation: string) {
  const overdue = a.due_on < today;
  const amount = `$${formatCents(Number(a.amount_cents))}`;
  return {
    subject: `Expenditure declaration ${overdue ? 'overdue' : 'due'} for grant ${a.lodgement_reference}`,
    text: [
      `${foundation} paid ${a.club_name} a grant of ${amount} (lodgement reference ${a.lodgement_reference}).`,
      `Its expenditure declaration (the acquittal) ${overdue ? 'was' : 'is'} due on ${longDate(a.due_on)}: who ` +
        'declares it, the date, the amount of the grant spent and what it was spent on.',
      'Please send it to the foundation. While an acquittal is overdue, further grants to the club are held.',
      '',
    ].join('\n\n'),
  };
}
