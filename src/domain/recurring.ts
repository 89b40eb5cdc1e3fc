import { addDays, addMonths, type CalendarDate } from './calendar-date.js';

/** How often a recurring donation is debited (docs/recurring.md). */
export const FREQUENCIES = ['weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/**
 * A plan's status: `active` collects; `past_due` still collects, but a debit failed after its last try;
 * `canceled` collects no more (by the partner, an operator, a revoked mandate, or failures); `completed` collected
 * every debit its end date or count allowed.
 */
export const PLAN_STATUSES = ['active', 'past_due', 'canceled', 'completed'] as const;

/**
 * A debit's status: `scheduled` (due, or waiting for its next try), `processing` (submitted: a BECS debit takes
 * days), `succeeded` (collected: a donation), `failed` (for good, or until its next try: see `nextAttemptOn`).
 */
export const DEBIT_STATUSES = ['scheduled', 'processing', 'succeeded', 'failed'] as const;

/**
 * The date of a plan's debit number `index` (0 for the first): always counted from the start date, so monthly
 * debits that start on the 31st fall on each month's last day when it is shorter and on the 31st again after.
 */
function dueDateOf(startDate: CalendarDate, frequency: Frequency, index: number): CalendarDate {
  switch (frequency) {
    case 'weekly':
      return addDays(startDate, 7 * index);
    case 'fortnightly':
      return addDays(startDate, 14 * index);
    case 'monthly':
      return addMonths(startDate, index);
    case 'quarterly':
      return addMonths(startDate, 3 * index);
    case 'yearly':
      return addMonths(startDate, 12 * index);
  }
}

/** Where a plan's schedule ends: a last date, a number of debits, or neither (until canceled). */
export interface PlanEnd {
  endDate: CalendarDate | null;
  maxDebits: number | null;
}

/** The date of the plan's debit number `index`, or null when the plan ends before it. */
export function scheduledDate(
  plan: { startDate: CalendarDate; frequency: Frequency } & PlanEnd,
  index: number,
): CalendarDate | null {
  if (plan.maxDebits !== null && index >= plan.maxDebits) return null;
  const date = dueDateOf(plan.startDate, plan.frequency, index);
  return plan.endDate !== null && date > plan.endDate ? null : date;
}

/** Why a debit failed, as a provider reports it: a code, the words partners and operators read, and whether to try again. */
export interface DebitFailure {
  code: string;
  message: string;
  /** Worth another try later (money may arrive); a closed account or a revoked mandate is not. */
  retryable: boolean;
  /** The mandate can no longer be debited: its plans are canceled. */
  mandateEnded: boolean;
}

const FAILURES: Record<string, Omit<DebitFailure, 'code'>> = {
  insufficient_funds: { message: 'Insufficient funds in the account', retryable: true, mandateEnded: false },
  account_closed: { message: 'The bank account is closed', retryable: false, mandateEnded: true },
  no_account: { message: 'The bank account does not exist', retryable: false, mandateEnded: true },
  debit_not_authorized: {
    message: 'The account holder told the bank the debit was not authorised',
    retryable: false,
    mandateEnded: true,
  },
  mandate_revoked: { message: 'The direct-debit mandate was revoked', retryable: false, mandateEnded: true },
  account_frozen: { message: 'The bank account is frozen', retryable: true, mandateEnded: false },
  bank_unavailable: { message: 'The bank could not be reached', retryable: true, mandateEnded: false },
};

/** The failure a provider's code names; an unknown code is retried, in plain words that say so. */
export function debitFailure(code: string | null | undefined, providerMessage?: string | null): DebitFailure {
  const key = code ?? 'unknown';
  const known = FAILURES[key];
  if (known) return { code: key, ...known };
  return {
    code: key,
    message: providerMessage ? `The bank refused the debit: ${providerMessage}` : 'The bank refused the debit',
    retryable: true,
    mandateEnded: false,
  };
}

/**
 * After a failed try (number `attempt`, from 1), the date of the next, or null when there is none: one more try
 * per entry of `retryDelaysDays`, each that many days after the failure.
 */
export function nextAttemptDate(
  failedOn: CalendarDate,
  attempt: number,
  failure: DebitFailure,
  retryDelaysDays: readonly number[],
): CalendarDate | null {
  if (!failure.retryable) return null;
  const delay = retryDelaysDays[attempt - 1];
  return delay === undefined ? null : addDays(failedOn, delay);
}
