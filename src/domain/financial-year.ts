import { dateIn, type CalendarDate } from './calendar-date.js';

/**
 * The Australian financial year, 1 July to 30 June, named as the ATO writes it: `2026-27`. Which year an instant
 * falls in is decided by the calendar date of the foundation's time zone (Australia/Sydney), so 30 June 23:59 in
 * Sydney is the old year and 1 July 00:00 the new one, whatever UTC says.
 */
export type FinancialYear = string;

const PATTERN = /^(\d{4})-(\d{2})$/;

/** The financial year a calendar date (YYYY-MM-DD) belongs to. */
function financialYearOfDate(date: CalendarDate): FinancialYear {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const first = month >= 7 ? year : year - 1;
  return `${first}-${String((first + 1) % 100).padStart(2, '0')}`;
}

/** The financial year of an instant, by its date in `timeZone`. */
export const financialYearOf = (instant: Date, timeZone: string): FinancialYear =>
  financialYearOfDate(dateIn(instant, timeZone));

/** Whether `value` names a financial year (`2026-27`: the second year follows the first). */
export function isFinancialYear(value: string): boolean {
  const match = PATTERN.exec(value);
  return match !== null && (Number(match[1]) + 1) % 100 === Number(match[2]);
}

/** The first and last calendar dates of a financial year. */
export function financialYearDates(year: FinancialYear): { first: CalendarDate; last: CalendarDate } {
  const start = Number(year.slice(0, 4));
  return { first: `${start}-07-01`, last: `${start + 1}-06-30` };
}

/** The financial year before `year`. */
export function previousFinancialYear(year: FinancialYear): FinancialYear {
  return financialYearOfDate(`${Number(year.slice(0, 4)) - 1}-07-01`);
}
