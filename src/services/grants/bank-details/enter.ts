import { accountEnding } from '../../../domain/bank-account.js';
import type { ClubBankDetails } from '../../../infrastructure/db/schema-grants.js';
import type { Account } from '../../../infrastructure/db/schema.js';
import { isUniqueViolation } from '../../../infrastructure/db/unavailable.js';
import { bankDetailsHistory, insertPendingDetails } from '../../../infrastructure/repositories/club-bank-details.js';
import { clubContactsOf } from '../../../infrastructure/repositories/club-contacts.js';
import { AuditActions, audit } from '../../operators/audit.js';
import { inTransaction, type OperatorContext } from '../../operators/context.js';
import { ConflictError } from '../../operators/operator-errors.js';
import { requireClub } from '../club.js';
import { requireValidDetails, type CheckedDetails, type DetailsInput } from './checks.js';
import { tellContacts } from './notify.js';
import type { BankDetailsSettings } from './settings.js';
import { shownDetails, type ShownDetails } from './shown.js';

export type DetailsSource = 'cli' | 'console' | 'import';

export interface EnteredDetails {
  memberNumber: string;
  club: string;
  /** The pending version, its account number masked. */
  details: ShownDetails;
  /** Who was told of it (the club's contacts on file before the change). */
  told: string[];
}

/** Enters new bank details for a club as a pending change (CLI and console); see enterPendingDetails. */
export async function setBankDetails(
  ctx: OperatorContext,
  settings: BankDetailsSettings,
  clubRef: string,
  input: DetailsInput,
  source: 'cli' | 'console',
): Promise<EnteredDetails> {
  const club = await requireClub(ctx, clubRef);
  const checked = await requireValidDetails(ctx.db, input);
  return inTransaction(ctx, (tx) => enterPendingDetails(tx, settings, club, checked, source));
}

/**
 * Writes checked details as the club's pending change, tells its contacts and audits it, in the caller's
 * transaction. Refused while another change of the club is pending, or when they are the details already verified.
 */
export async function enterPendingDetails(
  tx: OperatorContext,
  settings: BankDetailsSettings,
  club: Account,
  checked: CheckedDetails,
  source: DetailsSource,
): Promise<EnteredDetails> {
  const versions = await bankDetailsHistory(tx.db, club.id);
  const pending = versions.find((v) => v.status === 'pending');
  if (pending) throw pendingConflict(club, pending);
  const verified = versions.find((v) => v.status === 'verified');
  if (verified && sameDetails(verified, checked))
    throw new ConflictError(`These are already the verified bank details of ${club.member_number}; nothing changed.`);
  // The contacts on file before the change: one added with the new details cannot vouch for them.
  const contacts = await clubContactsOf(tx.db, club.id);
  const details = await insertPendingDetails(tx.db, {
    accountId: club.id,
    bsb: checked.bsb,
    accountNumber: checked.accountNumber,
    accountName: checked.accountName,
    enteredBy: tx.operator,
    enteredAt: tx.now(),
    source,
  }).catch((err: unknown) => {
    throw isUniqueViolation(err)
      ? new ConflictError(`${club.member_number} already has a pending bank change; verify or reject it first.`)
      : err;
  });
  const told = await tellContacts(tx.db, club, contacts, details, checked, settings.timeZone);
  await audit(tx, AuditActions.clubBankDetailsSet, club.member_number, {
    detailsId: details.id,
    source,
    bsb: details.bsb,
    account: accountEnding(details.account_number),
    accountName: details.account_name,
    replaces: verified?.id ?? null,
    contactsTold: told.length,
    ...(told.length === 0 ? { noContacts: 'the club has no contacts on file: nobody was told of the change' } : {}),
  });
  const branches = new Map(checked.branch ? [[checked.branch.bsb, checked.branch]] : []);
  const shown = shownDetails(details, branches, { unmask: false, holdDays: settings.holdDays, now: tx.now() });
  return { memberNumber: club.member_number, club: club.name, details: shown, told };
}

/** Whether a version holds exactly these details. */
export const sameDetails = (
  version: Pick<ClubBankDetails, 'bsb' | 'account_number' | 'account_name'>,
  details: Pick<CheckedDetails, 'bsb' | 'accountNumber' | 'accountName'>,
) =>
  version.bsb === details.bsb &&
  version.account_number === details.accountNumber &&
  version.account_name === details.accountName;

function pendingConflict(club: Account, pending: ClubBankDetails): ConflictError {
  return new ConflictError(
    `${club.member_number} already has a pending bank change (entered ${pending.entered_at.toISOString()} by ` +
      `${pending.entered_by}); it must be verified or rejected before another is entered.`,
  );
}
