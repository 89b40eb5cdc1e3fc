import { maskAccountNumber } from '../../../domain/bank-account.js';
import type { RoundRow } from '../../../infrastructure/repositories/grant-rounds.js';
import type { LineView } from '../../../infrastructure/repositories/grants.js';

/** How a round and its lines are shown to operators (CLI, console): plain values, cents as integers in text. */

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function roundView(r: RoundRow) {
  return {
    number: r.number,
    status: r.status,
    scheduledOn: r.scheduled_on,
    cutoffAt: iso(r.cutoff_at),
    basis: r.basis,
    feeBasisPoints: r.fee_basis_points,
    minimumCents: String(r.minimum_cents),
    draftedBy: r.drafted_by,
    draftedAt: iso(r.drafted_at),
    reviewedBy: r.reviewed_by,
    reviewedAt: iso(r.reviewed_at),
    approvedBy: r.approved_by,
    approvedAt: iso(r.approved_at),
    cancelledBy: r.cancelled_by,
    cancelledAt: iso(r.cancelled_at),
    cancelReason: r.cancel_reason,
    totalCents: String(r.total_cents),
    grantCount: r.grant_count,
    heldCount: r.held_count,
    abaSha256: r.aba_sha256,
    paidBy: r.paid_by,
    paidAt: iso(r.paid_at),
    bankConfirmedAt: iso(r.bank_confirmed_at),
  };
}
export type RoundView = ReturnType<typeof roundView>;

/** An account number shown with its last three digits only. */
export const maskedAccount = (number: string | null) => (number === null ? null : maskAccountNumber(number, '*'));

export function lineView(l: LineView) {
  return {
    memberNumber: l.member_number,
    club: l.club_name,
    status: l.status,
    holdReason: l.hold_reason,
    donationsCents: l.donations_cents,
    recoveredCents: l.recovered_cents,
    reissuedCents: l.reissued_cents,
    feeCents: l.fee_cents,
    amountCents: l.amount_cents,
    donationCount: l.donation_count,
    bsb: l.bsb,
    account: maskedAccount(l.account_number),
    lodgementReference: l.lodgement_reference,
  };
}
export type GrantLineView = ReturnType<typeof lineView>;
