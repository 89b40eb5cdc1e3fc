import type { ClubContact } from '../../../infrastructure/db/schema-grants.js';
import { branchesOf } from '../../../infrastructure/repositories/bsb-directory.js';
import { bankDetailsHistory, pendingChanges } from '../../../infrastructure/repositories/club-bank-details.js';
import { clubContactsOf, gstRegistered } from '../../../infrastructure/repositories/club-contacts.js';
import { verifiedDetailsOf } from '../../../infrastructure/repositories/club-bank-details.js';
import { AuditActions, audit } from '../../operators/audit.js';
import { inTransaction, type OperatorContext } from '../../operators/context.js';
import { requireClub } from '../club.js';
import type { BankDetailsSettings } from './settings.js';
import { shownDetails, type ShownDetails } from './shown.js';

export type { ShownDetails };

/** A club's bank details page: the details paid to, the change waiting, every version, its contacts and GST. */
export interface ClubBankView {
  memberNumber: string;
  club: string;
  gstRegistered: boolean;
  holdDays: number;
  current: ShownDetails | null;
  pending: ShownDetails | null;
  history: ShownDetails[];
  contacts: ClubContact[];
}

/**
 * Who sees an account number whole: admins in the console, and the CLI with --unmask. Each unmasked view is audited
 * (club.bank_details_view) before it is shown (docs/decisions/0062-account-numbers-unmasked-for-admins-audited.md).
 */
export interface Viewing {
  unmask: boolean;
  /** Where it was shown, for the audit entry: 'cli' or 'console'. */
  via: 'cli' | 'console';
}

export async function showBankDetails(
  ctx: OperatorContext,
  settings: BankDetailsSettings,
  clubRef: string,
  viewing: Viewing,
): Promise<ClubBankView> {
  const club = await requireClub(ctx, clubRef);
  const [versions, contacts, gst] = await Promise.all([
    bankDetailsHistory(ctx.db, club.id),
    clubContactsOf(ctx.db, club.id),
    gstRegistered(ctx.db, club.id),
  ]);
  const branches = await branchesOf(
    ctx.db,
    versions.map((v) => v.bsb),
  );
  if (viewing.unmask && versions.length > 0)
    await inTransaction(ctx, (tx) =>
      audit(tx, AuditActions.clubBankDetailsView, club.member_number, {
        via: viewing.via,
        versions: versions.map((v) => v.id),
      }),
    );
  const options = { unmask: viewing.unmask, holdDays: settings.holdDays, now: ctx.now() };
  const history = versions.map((v) => shownDetails(v, branches, options));
  return {
    memberNumber: club.member_number,
    club: club.name,
    gstRegistered: gst,
    holdDays: settings.holdDays,
    current: history.find((v) => v.status === 'verified') ?? null,
    pending: history.find((v) => v.status === 'pending') ?? null,
    history,
    contacts,
  };
}

/** A pending change with the club it is for and the verified details it would replace. */
export interface PendingChange {
  memberNumber: string;
  club: string;
  pending: ShownDetails;
  current: ShownDetails | null;
}

/** Every pending change, oldest first; unmasked views are audited per club, as on a club's page. */
export async function listPendingChanges(
  ctx: OperatorContext,
  settings: BankDetailsSettings,
  viewing: Viewing & { limit: number },
): Promise<PendingChange[]> {
  const rows = await pendingChanges(ctx.db, viewing.limit);
  const current = await verifiedDetailsOf(
    ctx.db,
    rows.map((r) => r.account_id),
  );
  const branches = await branchesOf(ctx.db, [...rows.map((r) => r.bsb), ...[...current.values()].map((c) => c.bsb)]);
  if (viewing.unmask && rows.length > 0)
    await inTransaction(ctx, async (tx) => {
      for (const row of rows)
        await audit(tx, AuditActions.clubBankDetailsView, row.member_number, {
          via: viewing.via,
          versions: [row.id, ...(current.has(row.account_id) ? [current.get(row.account_id)!.id] : [])],
        });
    });
  const options = { unmask: viewing.unmask, holdDays: settings.holdDays, now: ctx.now() };
  return rows.map((row) => {
    const verified = current.get(row.account_id);
    return {
      memberNumber: row.member_number,
      club: row.club_name,
      pending: shownDetails(row, branches, options),
      current: verified ? shownDetails(verified, branches, options) : null,
    };
  });
}
