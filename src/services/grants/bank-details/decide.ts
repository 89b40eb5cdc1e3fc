import { accountEnding } from '../../../domain/bank-account.js';
import type { ClubBankDetails } from '../../../infrastructure/db/schema-grants.js';
import type { Account } from '../../../infrastructure/db/schema.js';
import { branchesOf } from '../../../infrastructure/repositories/bsb-directory.js';
import {
  lockPendingDetails,
  rejectDetails,
  verifyDetails,
} from '../../../infrastructure/repositories/club-bank-details.js';
import { AuditActions, audit } from '../../operators/audit.js';
import { inTransaction, type OperatorContext } from '../../operators/context.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../operators/operator-errors.js';
import { requireClub } from '../club.js';
import type { BankDetailsSettings } from './settings.js';
import { shownDetails, type ShownDetails } from './shown.js';

export interface DecidedDetails {
  memberNumber: string;
  club: string;
  /** The version decided on, its account number masked. */
  details: ShownDetails;
  superseded: ShownDetails | null;
}

const MAX_TEXT = 500;

/**
 * A second operator verifies a club's pending change, having called the club on a number already on file: it becomes
 * the club's verified details and the version before is superseded. Never by the operator who entered it (the
 * table's check refuses it too). `waiveHold`: approved to be paid before the hold period ends.
 */
export async function verifyBankDetails(
  ctx: OperatorContext,
  settings: BankDetailsSettings,
  clubRef: string,
  decision: { confirmation: string; waiveHold: boolean },
): Promise<DecidedDetails> {
  const confirmation = requiredText(
    decision.confirmation,
    'The confirmation must say whom you called at the club and on which number on file',
  );
  const club = await requireClub(ctx, clubRef);
  return inTransaction(ctx, async (tx) => {
    const pending = await requirePending(tx, club, 'verify');
    const { verified, superseded } = await verifyDetails(tx.db, pending, {
      by: tx.operator,
      at: tx.now(),
      confirmation,
      holdWaived: decision.waiveHold,
    });
    await audit(tx, AuditActions.clubBankDetailsVerify, club.member_number, {
      detailsId: verified.id,
      bsb: verified.bsb,
      account: accountEnding(verified.account_number),
      enteredBy: verified.entered_by,
      confirmation,
      holdWaived: decision.waiveHold,
      superseded: superseded?.id ?? null,
    });
    const show = await shower(tx, settings, [verified, ...(superseded ? [superseded] : [])]);
    return {
      memberNumber: club.member_number,
      club: club.name,
      details: show(verified),
      superseded: superseded ? show(superseded) : null,
    };
  });
}

/** A second operator rejects a club's pending change, with the reason; never the operator who entered it. */
export async function rejectBankDetails(
  ctx: OperatorContext,
  settings: BankDetailsSettings,
  clubRef: string,
  reasonText: string,
): Promise<DecidedDetails> {
  const reason = requiredText(reasonText, 'Give the reason the change is rejected');
  const club = await requireClub(ctx, clubRef);
  return inTransaction(ctx, async (tx) => {
    const pending = await requirePending(tx, club, 'reject');
    const rejected = await rejectDetails(tx.db, pending, { by: tx.operator, at: tx.now(), reason });
    await audit(tx, AuditActions.clubBankDetailsReject, club.member_number, {
      detailsId: rejected.id,
      bsb: rejected.bsb,
      account: accountEnding(rejected.account_number),
      enteredBy: rejected.entered_by,
      reason,
    });
    const show = await shower(tx, settings, [rejected]);
    return { memberNumber: club.member_number, club: club.name, details: show(rejected), superseded: null };
  });
}

/** The pending change, locked; refused when there is none, or when the one deciding entered it (four eyes). */
async function requirePending(tx: OperatorContext, club: Account, verb: 'verify' | 'reject') {
  const pending = await lockPendingDetails(tx.db, club.id);
  if (!pending) throw new NotFoundError(`${club.member_number} has no pending bank change to ${verb}.`);
  if (pending.entered_by.trim().toLowerCase() === tx.operator.trim().toLowerCase())
    throw new ConflictError(
      `${tx.operator} entered this bank change and cannot ${verb} a change they entered: another operator must ` +
        `${verb} it (four eyes).`,
    );
  return pending;
}

/** Shows decided versions masked, with their branches. */
async function shower(tx: OperatorContext, settings: BankDetailsSettings, rows: ClubBankDetails[]) {
  const branches = await branchesOf(
    tx.db,
    rows.map((r) => r.bsb),
  );
  const options = { unmask: false, holdDays: settings.holdDays, now: tx.now() };
  return (row: ClubBankDetails) => shownDetails(row, branches, options);
}

function requiredText(value: string, message: string): string {
  const text = value.trim();
  if (text === '') throw new InvalidInputError(`${message}.`);
  if (text.length > MAX_TEXT) throw new InvalidInputError(`${message}, in at most ${MAX_TEXT} characters.`);
  if (/\p{Cc}/u.test(text)) throw new InvalidInputError(`${message}, without control characters.`);
  return text;
}
