import { instantOfWallTime, zoneOffsetAt } from './local-time.js';

/**
 * Calendar dates as `YYYY-MM-DD` strings: what a debit is due on, in the foundation's time zone. Strings compare in
 * date order, cross the wire and the database unchanged, and never pass through a JavaScript Date at local
 * midnight (where a time zone could move them a day).
 */
export type CalendarDate = string;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(date: CalendarDate): [number, number, number] {
  const match = DATE.exec(date);
  if (!match) throw new Error(`not a calendar date: ${date}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

const format = (year: number, month: number, day: number): CalendarDate =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** A real date from 2000 to 2999 (nothing the service schedules is older, and the bound keeps arithmetic exact). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return year >= 2000 && year <= 2999 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const [year, month, day] = parts(date);
  const shifted = new Date(Date.UTC(year, month - 1, day + days));
  return format(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate());
}

/**
 * `months` calendar months after `date`, on the same day of the month, or the month's last day when it has fewer
 * days (31 January + 1 month = 28 or 29 February). Always counted from the same anchor, so a schedule never drifts:
 * 31 January + 2 months is 31 March, not 28 March.
 */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const [year, month, day] = parts(date);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  return format(targetYear, targetMonth, Math.min(day, daysInMonth(targetYear, targetMonth)));
}

/** The calendar date of an instant in a time zone. */
export function dateIn(instant: Date, timeZone: string): CalendarDate {
  const local = new Date(instant.getTime() + zoneOffsetAt(instant.getTime(), timeZone));
  return format(local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate());
}

/** The instant a calendar date starts in a time zone (the first instant that exists that day). */
export function startOfDate(date: CalendarDate, timeZone: string): Date {
  const [year, month, day] = parts(date);
  for (let minutes = 0; minutes < 24 * 60; minutes += 30) {
    const instant = instantOfWallTime(Date.UTC(year, month - 1, day, 0, minutes), timeZone);
    if (instant !== null) return new Date(instant);
  }
  throw new Error(`no instant of ${date} exists in ${timeZone}`);
}
