import { feeCents } from './fee.js';

/**
 * One club's line of a round (docs/grants.md): what it is owed and whether it is paid or held, with the reason.
 * Pure: the facts come from the round's query, the decision is made here.
 */

/** The reasons a line is held, in the order they are reported: the first that applies is the line's reason. */
export const HOLD_REASONS = [
  'no_bank_details',
  'bank_details_on_hold',
  'payment_returned',
  'acquittal_overdue',
  'negative_balance',
  'under_minimum',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

export interface LineFacts {
  /** Net amounts of the donations not yet granted. */
  donationsCents: bigint;
  /** Reversals of donations already granted, not yet recovered. */
  recoveredCents: bigint;
  /** Returned grants not yet paid again. */
  reissuedCents: bigint;
  /** The club has verified bank details. */
  hasVerifiedDetails: boolean;
  /** Those details may be paid now: the hold was waived or GRANT_BANK_CHANGE_HOLD_DAYS have passed. */
  detailsPayable: boolean;
  /** A grant was returned by the bank since the details were verified. */
  paymentReturned: boolean;
  /** An acquittal of an earlier grant is overdue. */
  acquittalOverdue: boolean;
}

export interface LineTerms {
  feeBasisPoints: number;
  minimumCents: bigint;
}

export interface LineOutcome {
  feeCents: bigint;
  amountCents: bigint;
  holdReason: HoldReason | null;
}

/** donations − recovered + reissued − fee. */
function grantAmount(facts: Pick<LineFacts, 'donationsCents' | 'recoveredCents' | 'reissuedCents'>, fee: bigint) {
  return facts.donationsCents - facts.recoveredCents + facts.reissuedCents - fee;
}

/** Every reason that applies, in precedence order (the first is the line's). */
export function holdReasons(facts: LineFacts, amountCents: bigint, minimumCents: bigint): HoldReason[] {
  const applies: Record<HoldReason, boolean> = {
    no_bank_details: !facts.hasVerifiedDetails,
    bank_details_on_hold: facts.hasVerifiedDetails && !facts.detailsPayable,
    payment_returned: facts.paymentReturned,
    acquittal_overdue: facts.acquittalOverdue,
    negative_balance: amountCents < 0n,
    // Nothing to pay is carried too: a grant of zero is not a payment (docs/decisions/0063-…).
    under_minimum: amountCents >= 0n && (amountCents < minimumCents || amountCents === 0n),
  };
  return HOLD_REASONS.filter((reason) => applies[reason]);
}

export function decideLine(facts: LineFacts, terms: LineTerms): LineOutcome {
  const fee = feeCents(facts.donationsCents, terms.feeBasisPoints);
  const amount = grantAmount(facts, fee);
  return { feeCents: fee, amountCents: amount, holdReason: holdReasons(facts, amount, terms.minimumCents)[0] ?? null };
}
