import type { Kysely } from 'kysely';
import { maskAccountNumber } from '../../../domain/bank-account.js';
import type { ClubBankDetails, ClubContact } from '../../../infrastructure/db/schema-grants.js';
import type { Account, DB } from '../../../infrastructure/db/schema.js';
import { enqueueMail } from '../../mail/outbox.js';
import { branchLabel, type CheckedDetails } from './checks.js';
import { localTime } from './settings.js';

/** The outbox's kind of the message telling a club's contacts its bank details changed. */
const BANK_CHANGE_MAIL = 'club-bank-change';

/**
 * Tells each contact the club had on file before the change that new details were entered: masked, when, and to call
 * the foundation on a number they already have if they did not ask for it (docs/decisions/0060-bank-change-told-to-contacts-on-file.md).
 * Written to the outbox in the change's transaction: the message exists if and only if the change does.
 */
export async function tellContacts(
  trx: Kysely<DB>,
  club: Account,
  contacts: readonly ClubContact[],
  details: ClubBankDetails,
  checked: CheckedDetails,
  timeZone: string,
): Promise<string[]> {
  const recipients = [...new Map(contacts.map((c) => [c.email.toLowerCase(), c])).values()];
  for (const contact of recipients)
    await enqueueMail(trx, {
      kind: BANK_CHANGE_MAIL,
      recipient: contact.email,
      subject: `New bank details were entered for ${club.name}`,
      text: mailText(club, contact, details, checked, timeZone),
      html: null,
      about: `club-bank-details:${details.id}`,
    });
  return recipients.map((c) => c.email);
}

function mailText(
  club: Account,
  contact: ClubContact,
  details: ClubBankDetails,
  checked: CheckedDetails,
  timeZone: string,
): string {
  const branch = branchLabel(checked.branch);
  return [
    `Hello ${contact.name},`,
    '',
    `New bank details for ${club.name} (member ${club.member_number}) were entered with the foundation on ` +
      `${localTime(details.entered_at, timeZone)}:`,
    '',
    `  BSB:            ${details.bsb}${branch ? ` (${branch})` : ''}`,
    `  Account number: ${maskAccountNumber(details.account_number)}`,
    `  Account name:   ${details.account_name}`,
    '',
    'Grants are paid to new details only after a second person at the foundation has confirmed the change with your',
    'club by phone.',
    '',
    'If your club did not ask for this change, call the foundation at once, on the number you already have for us',
    '(never one given in a message about this change).',
    '',
    'You receive this because you are a contact of the club on file with the foundation.',
  ].join('\n');
}
