/**
 * The vocabulary of remittance reconciliation (docs/reconciliation.md): the outcome an entry can have and the status a
 * batch goes through. The rules that decide an outcome are in reconciliation.ts.
 */

export const OUTCOMES = [
  'matched',
  'amount_mismatch',
  'unknown_donation',
  'foreign_donation',
  'already_settled',
  'reversed_donation',
  'duplicate_bank_reference',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** accepted (stored, job queued) → processing (a run started) → one of the two completed statuses. */
export const BATCH_STATUSES = ['accepted', 'processing', 'completed', 'completed_with_exceptions'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export const completedStatus = (exceptions: number): BatchStatus =>
  exceptions > 0 ? 'completed_with_exceptions' : 'completed';

/** Everything except `matched` is an exception an operator or the partner has to look at. */
export const isException = (outcome: string | null): boolean => outcome !== null && outcome !== 'matched';
