/** Reversals of recorded donations (docs/reversals.md). Pure rules. */
import { formatCents } from './money.js';

/** Why money went back. Partners and operators give one of the first four; a disputed debit is `disputed`. */
export const REVERSAL_REASONS = ['refunded', 'duplicate', 'fraudulent', 'error', 'disputed'] as const;
export type ReversalReason = (typeof REVERSAL_REASONS)[number];
export const REQUESTABLE_REASONS = ['refunded', 'duplicate', 'fraudulent', 'error'] as const;

/** What is left of a donation once reversals took their share. */
export const netCents = (amountCents: number, reversedCents: number): number => amountCents - reversedCents;

/**
 * Why a reversal of `requestedCents` cannot be made, or null when it can: a donation recorded without an amount has
 * no amount to take back, and the reversals of a donation never sum to more than it.
 */
export function reversalProblem(
  donation: { referenceId: string; amountCents: number | null; reversedCents: number },
  requestedCents: number,
): string | null {
  if (donation.amountCents === null)
    return `Donation ${donation.referenceId} was recorded without an amount: there is no amount to reverse`;
  const left = netCents(donation.amountCents, donation.reversedCents);
  if (left === 0) return `Donation ${donation.referenceId} is already reversed in full`;
  if (requestedCents > left)
    return `amount: at most ${formatCents(left)} of donation ${donation.referenceId} is left to reverse`;
  return null;
}
