import { isCalendarDate, type CalendarDate } from './calendar-date.js';
import { parseDecimalToCents } from './money.js';

/**
 * The values of a bank statement line as banks write them: signed amounts with thousands separators, dates in the
 * bank's own order, references inside free text (docs/bank-statements.md). Pure rules, no I/O.
 */

/** The date layouts a CSV mapping may name. Day and month may have one digit or two in the numeric ones. */
export const DATE_FORMATS = [
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'YYYY-MM-DD',
  'DD-MMM-YY',
  'DD-MMM-YYYY',
  'DD.MM.YYYY',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

const LAYOUTS: Record<DateFormat, { pattern: RegExp; order: ['d' | 'm' | 'y', 'd' | 'm' | 'y', 'd' | 'm' | 'y'] }> = {
  'DD/MM/YYYY': { pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: ['d', 'm', 'y'] },
  'MM/DD/YYYY': { pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: ['m', 'd', 'y'] },
  'YYYY-MM-DD': { pattern: /^(\d{4})-(\d{2})-(\d{2})$/, order: ['y', 'm', 'd'] },
  'DD-MMM-YY': { pattern: /^(\d{1,2})[- ]([A-Za-z]{3})[- ](\d{2})$/, order: ['d', 'm', 'y'] },
  'DD-MMM-YYYY': { pattern: /^(\d{1,2})[- ]([A-Za-z]{3})[- ](\d{4})$/, order: ['d', 'm', 'y'] },
  'DD.MM.YYYY': { pattern: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/, order: ['d', 'm', 'y'] },
};

/** `YYYY-MM-DD` for a date written in `format`, or null when it is not one (or not a real day). */
export function parseBankDate(text: string, format: DateFormat): CalendarDate | null {
  const { pattern, order } = LAYOUTS[format];
  const match = pattern.exec(text.trim());
  if (!match) return null;
  const parts: Record<string, string> = {};
  order.forEach((part, i) => (parts[part] = match[i + 1]!));
  const month = /^\d+$/.test(parts.m!) ? Number(parts.m) : MONTHS.indexOf(parts.m!.toUpperCase()) + 1;
  // Two-digit years are this century's: statements are of recent months.
  const year = parts.y!.length === 2 ? 2000 + Number(parts.y) : Number(parts.y);
  const date = `${year}-${String(month).padStart(2, '0')}-${String(Number(parts.d)).padStart(2, '0')}`;
  return month >= 1 && isCalendarDate(date) ? date : null;
}

/**
 * Signed cents of an amount as banks export it: "+1,234.56", "-12.34", "$50", "50.5", or in brackets for a debit
 * ("(12.34)"). Digit by digit, never through a float (docs/decisions/0011-money-in-integer-cents.md); null when
 * it is not an amount with at most two decimals.
 */
export function parseBankAmount(text: string): number | null {
  let value = text.trim().replace(/\s/g, '');
  let sign = 1;
  const bracketed = /^\((.*)\)$/.exec(value);
  if (bracketed) {
    sign = -1;
    value = bracketed[1]!;
  }
  if (value.startsWith('-') || value.startsWith('+')) {
    if (value.startsWith('-')) sign = -sign;
    value = value.slice(1);
  }
  value = value.replace(/^\$/, '');
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(value)) return null;
  const cents = parseDecimalToCents(value.replace(/,/g, ''));
  return cents === null ? null : sign * cents;
}

/** How a reference is compared: upper case, without surrounding space. */
export const normaliseReference = (reference: string) => reference.trim().toUpperCase();

/**
 * The words of a line's reference and description, upper-cased, that an entry's bank reference can equal: split at
 * spaces and at punctuation that never sits inside a reference ("REF:B-1" gives "REF" and "B-1"). The whole
 * reference field is a word too (a reference may hold a space).
 */
export function tokensOf(reference: string | null, description: string): string[] {
  const words = `${reference ?? ''} ${description}`.split(/[\s,;:|/\\()[\]{}"'<>]+/).map(normaliseReference);
  const whole = reference ? [normaliseReference(reference)] : [];
  return [...new Set([...whole, ...words])].filter((word) => word.length > 0);
}
