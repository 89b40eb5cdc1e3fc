import { addDays, addMonths } from './calendar-date.js';
import { instantOfWallTime, zoneOffsetAt } from './local-time.js';

/** An ISO 8601 duration of calendar parts (years, months, weeks, days) and clock parts (hours, minutes). */
export interface Duration {
  months: number;
  days: number;
  minutes: number;
}

const DURATION = /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?)?$/;

/** `P1M`, `P14D`, `P1Y2M`, `PT12H`…; null for anything else. */
export function parseDuration(text: string): Duration | null {
  const match = DURATION.exec(text);
  if (!match) return null;
  const [years = 0, months = 0, weeks = 0, days = 0, hours = 0, minutes = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  return { months: years * 12 + months, days: weeks * 7 + days, minutes: hours * 60 + minutes };
}

/**
 * `instant` moved on by `duration` as the foundation's calendar counts: months and days on its wall clock (a month
 * after 31 January is the last day of February, and a day is a day across a change of daylight saving), hours and
 * minutes as elapsed time.
 */
export function addDuration(instant: Date, duration: Duration, timeZone: string): Date {
  const wall = instant.getTime() + zoneOffsetAt(instant.getTime(), timeZone);
  const wallDate = new Date(wall).toISOString().slice(0, 10);
  const timeOfDay = wall - Date.parse(`${wallDate}T00:00:00Z`);
  const date = addDays(addMonths(wallDate, duration.months), duration.days);
  const target = Date.parse(`${date}T00:00:00Z`) + timeOfDay;
  // A wall time the clocks skip (daylight saving starts) is read an hour later, as clocks show it.
  const moved = instantOfWallTime(target, timeZone) ?? instantOfWallTime(target + 3_600_000, timeZone)!;
  return new Date(moved + duration.minutes * 60_000);
}
