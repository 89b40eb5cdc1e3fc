import { financialYearOf } from './financial-year.js';
import { startOfDate } from './calendar-date.js';

/**
 * How long personal information is kept (docs/privacy.md, "Retention"), as instants: anything created before a
 * cutoff has outlived its retention. Pure rules, no I/O.
 */

/** The years a deductible-gift receipt's records must be kept (the tax law's five years). */
const STATUTORY_RECEIPT_YEARS = 5;

export interface RetentionPolicy {
  /** DONOR_DATA_RETENTION_YEARS: donor details on donations, mandates, debits, receipts and mail recipients. */
  donorDataYears: number;
  /** MAIL_BODY_RETENTION_DAYS: rendered bodies of sent messages. */
  mailBodyDays: number;
  /** FOUNDATION_TIME_ZONE: the financial year's dates are the foundation's. */
  timeZone: string;
}

export interface RetentionCutoffs {
  /** Donor details of records created before this are de-identified. */
  donorData: Date;
  /** Bodies of messages created before this are purged. */
  mailBodies: Date;
  /**
   * A receipt issued at or after this instant is still inside its statutory five years, whatever the settings say:
   * its donor's details stay (docs/decisions/0070-statutory-years-counted-from-the-financial-year-end.md).
   */
  receiptHoldFrom: Date;
}

/** `years` calendar years before `now` (29 February counts back to 28 February or 1 March as Date does). */
function yearsBefore(now: Date, years: number): Date {
  const date = new Date(now.getTime());
  date.setUTCFullYear(date.getUTCFullYear() - years);
  return date;
}

/**
 * The five years of a receipt run from the end of the financial year it was issued in: a receipt issued in the
 * financial year 2021-22 is kept until 30 June 2027. So at `now`, receipts issued on or after 1 July of the year
 * five financial years before the current one are held.
 */
export function receiptHoldFrom(now: Date, timeZone: string): Date {
  const currentStart = Number(financialYearOf(now, timeZone).slice(0, 4));
  return startOfDate(`${currentStart - STATUTORY_RECEIPT_YEARS}-07-01`, timeZone);
}

/** The last day a receipt issued at `issuedAt` is held (YYYY-MM-DD, the foundation's date). */
export function receiptHeldUntil(issuedAt: Date, timeZone: string): string {
  const issuedStart = Number(financialYearOf(issuedAt, timeZone).slice(0, 4));
  return `${issuedStart + 1 + STATUTORY_RECEIPT_YEARS}-06-30`;
}

export function retentionCutoffs(now: Date, policy: RetentionPolicy): RetentionCutoffs {
  return {
    donorData: yearsBefore(now, policy.donorDataYears),
    mailBodies: new Date(now.getTime() - policy.mailBodyDays * 86_400_000),
    receiptHoldFrom: receiptHoldFrom(now, policy.timeZone),
  };
}
