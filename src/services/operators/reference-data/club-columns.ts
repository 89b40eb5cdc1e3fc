import type { ClubBankDetails } from '../../../infrastructure/db/schema-grants.js';
import { findAccount } from '../../../infrastructure/repositories/accounts.js';
import { openDetailsByMember } from '../../../infrastructure/repositories/club-bank-details.js';
import { updateGstRegistered } from '../../../infrastructure/repositories/club-contacts.js';
import { checkDetails, directoryView, type CheckedDetails } from '../../grants/bank-details/checks.js';
import { enterPendingDetails, sameDetails } from '../../grants/bank-details/enter.js';
import type { BankDetailsSettings } from '../../grants/bank-details/settings.js';
import { AuditActions, audit } from '../audit.js';
import type { OperatorContext } from '../context.js';
import type { ParsedFile, ProblemList } from './normalise.js';

/** What an import row did to its club's bank details: a new pending change, or nothing (they are already on file). */
export type BankOutcome = 'pending' | 'unchanged';

interface Open {
  pending?: ClubBankDetails;
  verified?: ClubBankDetails;
}

/**
 * Checks the bank details of the file's rows as `grants bank-set` does (format, the BSB directory), each problem
 * reported against its row; and refuses details that differ from a change still pending for the club, since one
 * change waits at a time. The checked details, by member number.
 */
export async function checkClubColumns(
  ctx: OperatorContext,
  parsed: ParsedFile,
  problems: ProblemList,
): Promise<Map<string, CheckedDetails>> {
  const withBank = parsed.accounts.filter((a) => a.club?.bank);
  const directory = await directoryView(
    ctx.db,
    withBank.map((a) => a.club!.bank!.bsb),
  );
  const checked = new Map<string, CheckedDetails>();
  for (const account of withBank) {
    const ref = { row: account.row, memberNumber: account.input.memberNumber };
    const result = checkDetails(account.club!.bank!, directory);
    for (const problem of result.problems) problems.add(ref, problem.field, problem.message);
    if (result.details) checked.set(account.input.memberNumber, result.details);
  }
  const open = await openByMember(ctx, [...checked.keys()]);
  for (const account of withBank) {
    const details = checked.get(account.input.memberNumber);
    const pending = open.get(account.input.memberNumber)?.pending;
    if (details && pending && !sameDetails(pending, details))
      problems.add(
        { row: account.row, memberNumber: account.input.memberNumber },
        'bsb',
        `the club already has a pending bank change (entered ${pending.entered_at.toISOString()} by ` +
          `${pending.entered_by}); verify or reject it before importing other details`,
      );
  }
  return checked;
}

/**
 * In the import's transaction, once the accounts are written: records GST flags (audited when changed) and enters
 * each row's bank details that differ from the club's current and pending ones as a pending change (source 'import'),
 * told to the club's contacts and audited like any other. A dry run only says what would happen.
 */
export async function applyClubColumns(
  tx: OperatorContext,
  settings: BankDetailsSettings,
  parsed: ParsedFile,
  checked: Map<string, CheckedDetails>,
  dryRun: boolean,
): Promise<Map<string, BankOutcome>> {
  const open = await openByMember(tx, [...checked.keys()]);
  const outcomes = new Map<string, BankOutcome>();
  for (const { input, club } of parsed.accounts) {
    if (!club) continue;
    const details = checked.get(input.memberNumber);
    if (details) {
      const { pending, verified } = open.get(input.memberNumber) ?? {};
      const onFile = pending ?? verified;
      outcomes.set(input.memberNumber, onFile && sameDetails(onFile, details) ? 'unchanged' : 'pending');
    }
    if (dryRun) continue;
    const account = await findAccount(tx.db, input.memberNumber);
    if (!account) throw new Error(`account ${input.memberNumber} was not written`);
    if (club.gstRegistered !== undefined) {
      const before = await updateGstRegistered(tx.db, account.id, club.gstRegistered);
      if (before !== club.gstRegistered)
        await audit(tx, AuditActions.clubGst, input.memberNumber, {
          gstRegistered: { from: before, to: club.gstRegistered },
          source: 'import',
        });
    }
    if (details && outcomes.get(input.memberNumber) === 'pending')
      await enterPendingDetails(tx, settings, account, details, 'import');
  }
  return outcomes;
}

async function openByMember(ctx: OperatorContext, memberNumbers: string[]): Promise<Map<string, Open>> {
  const byMember = new Map<string, Open>();
  for (const row of await openDetailsByMember(ctx.db, memberNumbers)) {
    const entry = byMember.get(row.member_number) ?? {};
    if (row.status === 'pending') entry.pending = row;
    else entry.verified = row;
    byMember.set(row.member_number, entry);
  }
  return byMember;
}
