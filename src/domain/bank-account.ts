/**
 * A club's bank account as the bank's direct-entry (ABA) file takes it, and how it is shown and when it may be paid.
 * Pure rules (docs/grants.md, "Bank details").
 */

const DAY_MS = 86_400_000;

/** The account number as 5–9 digits, spaces and dashes dropped; null when it is not one. */
export function normaliseAccountNumber(value: string): string | null {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{5,9}$/.test(digits) ? digits : null;
}

/**
 * The account name as the file carries it: 1–32 printable ASCII characters (the ABA record's field is 32 characters
 * of plain text), spaces around it dropped; null when it is not one.
 */
export function normaliseAccountName(value: string): string | null {
  const name = value.trim();
  return name.length >= 1 && name.length <= 32 && /^[\x20-\x7e]+$/.test(name) ? name : null;
}

/**
 * `•••••678`: the last three digits, a mark for each other one. Plain-text and ASCII documents (an advice, the
 * round's listing) use `*`, which every font and terminal has.
 */
export function maskAccountNumber(accountNumber: string, mark: '•' | '*' = '•'): string {
  const shown = accountNumber.slice(-3);
  return mark.repeat(Math.max(accountNumber.length - shown.length, 0)) + shown;
}

/** Last digits only, for messages and audit entries: `ending 678`. */
export const accountEnding = (accountNumber: string) => `ending ${accountNumber.slice(-3)}`;

export interface PayableFacts {
  status: string;
  enteredAt: Date;
  holdWaived: boolean;
}

/**
 * payableBankDetailsRule: when grants may be paid to a version of a club's details. Verified, and either the verifier
 * waived the hold or `holdDays` whole days (24 hours each) have passed since the details were entered. Null when
 * they are never payable as they stand (pending, rejected, superseded).
 */
export function payableFrom(details: PayableFacts, holdDays: number): Date | null {
  if (details.status !== 'verified' && details.status !== 'pending') return null;
  return details.holdWaived ? details.enteredAt : new Date(details.enteredAt.getTime() + holdDays * DAY_MS);
}

/** Whether a round with this cut-off pays to these details: the same rule the round's query applies in SQL. */
export function isPayable(details: PayableFacts, holdDays: number, cutoff: Date): boolean {
  const from = payableFrom(details, holdDays);
  return details.status === 'verified' && from !== null && from.getTime() <= cutoff.getTime();
}
