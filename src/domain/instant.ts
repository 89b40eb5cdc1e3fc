/**
 * An ISO 8601 / RFC 3339 date-time that names a real instant: a calendar date that exists (no 30 February), a
 * time without leap second (JavaScript and our storage have none: `23:59:60` would fail later), and an offset of
 * at most ±23:59, a year from 1900 (no donation is older; years before 1 AD are where JavaScript and
 * PostgreSQL disagree). Only what `new Date()` reads identically is accepted, so the stored instant is the one meant.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|([+-])(\d{2}):(\d{2}))$/i;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

export function isRealInstant(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (match[8] !== undefined && (Number(match[8]) > 23 || Number(match[9]) > 59)) return false;
  return !Number.isNaN(new Date(value).getTime());
}
