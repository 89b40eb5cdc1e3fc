import { instantOfWallTime } from './local-time.js';

/**
 * An ISO 8601 / RFC 3339 date-time that names a real instant: a calendar date that exists (no 30 February), a
 * time without leap second (JavaScript and our storage have none: `23:59:60` would fail later), and an offset of
 * at most ±23:59, a year from 1900 (no donation is older; years before 1 AD are where JavaScript and
 * PostgreSQL disagree). Only what `new Date()` reads identically is accepted, so the stored instant is the one meant.
 * Without Z or an offset it is a local date-time: a wall-clock time that needs a time zone to name an instant.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))?$/i;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The date-time read as written: `offset` false when it has neither Z nor an offset. */
function read(value: string): { offset: boolean } | null {
  const match = DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (match[8] !== undefined && (Number(match[8]) > 23 || Number(match[9]) > 59)) return null;
  const offset = match[7] !== undefined;
  // Without an offset, the same text read as UTC gives the wall-clock time, fractions of a second read as with one.
  return Number.isNaN(new Date(offset ? value : `${value}Z`).getTime()) ? null : { offset };
}

/** A date-time with Z or an offset: an instant on its own. */
export function isRealInstant(value: string): boolean {
  return read(value)?.offset === true;
}

/** A date-time with Z or an offset, or a local one without (which time zone it is read in is the caller's). */
export function isDateTime(value: string): boolean {
  return read(value) !== null;
}

/** A date-time without Z or an offset. */
export function isLocalDateTime(value: string): boolean {
  return read(value)?.offset === false;
}

/**
 * The instant a date-time names: as written when it has Z or an offset, otherwise the wall-clock time of
 * `timeZone` (the earlier instant in the hour repeated when clocks go back). Null when it is no date-time, or a
 * local time the zone skips when clocks go forward.
 */
export function instantOf(value: string, timeZone: string): Date | null {
  const reading = read(value);
  if (reading === null) return null;
  if (reading.offset) return new Date(value);
  const at = instantOfWallTime(new Date(`${value}Z`).getTime(), timeZone);
  return at === null ? null : new Date(at);
}
