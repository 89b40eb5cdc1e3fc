import { isPayable, maskAccountNumber, payableFrom } from '../../../domain/bank-account.js';
import type { ClubBankDetails } from '../../../infrastructure/db/schema-grants.js';
import type { BranchRow } from '../../../infrastructure/repositories/bsb-directory.js';
import { branchLabel } from './checks.js';

/** A version of a club's bank details as operators see it: the account number masked unless they may see it. */
export interface ShownDetails {
  id: string;
  status: ClubBankDetails['status'];
  bsb: string;
  /** The bank and branch the BSB directory names; null without a directory (or a BSB it no longer lists). */
  branch: string | null;
  accountNumber: string;
  masked: boolean;
  accountName: string;
  source: string;
  enteredBy: string;
  enteredAt: Date;
  verifiedBy: string | null;
  verifiedAt: Date | null;
  confirmation: string | null;
  holdWaived: boolean;
  rejectedBy: string | null;
  rejectedAt: Date | null;
  rejectReason: string | null;
  supersededAt: Date | null;
  /** When grants may first be paid to it (once verified, for a pending version); null when never. */
  payableFrom: Date | null;
  /** Verified and past its hold (or the hold was waived), at the time it was shown. */
  payableNow: boolean;
}

export function shownDetails(
  row: ClubBankDetails,
  branches: Map<string, BranchRow>,
  options: { unmask: boolean; holdDays: number; now: Date },
): ShownDetails {
  const facts = { status: row.status, enteredAt: row.entered_at, holdWaived: row.hold_waived };
  const from = payableFrom(facts, options.holdDays);
  return {
    id: row.id,
    status: row.status,
    bsb: row.bsb,
    branch: branchLabel(branches.get(row.bsb)),
    accountNumber: options.unmask ? row.account_number : maskAccountNumber(row.account_number),
    masked: !options.unmask,
    accountName: row.account_name,
    source: row.source,
    enteredBy: row.entered_by,
    enteredAt: row.entered_at,
    verifiedBy: row.verified_by,
    verifiedAt: row.verified_at,
    confirmation: row.confirmation,
    holdWaived: row.hold_waived,
    rejectedBy: row.rejected_by,
    rejectedAt: row.rejected_at,
    rejectReason: row.reject_reason,
    supersededAt: row.superseded_at,
    payableFrom: from,
    payableNow: isPayable(facts, options.holdDays, options.now),
  };
}
