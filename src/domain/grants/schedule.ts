import { addDays, dateIn, startOfDate, type CalendarDate } from '../calendar-date.js';

/**
 * GRANT_SCHEDULE: the days of the month a round is drafted (docs/grants.md, "The rhythm"), and the cut-off of each
 * (the start of the scheduled day in the foundation's time zone: docs/decisions/0063-…).
 */

/** A day of the month (1–28) or the month's last day. */
export type ScheduleDay = number | 'last';

/** "15,last" → [15, 'last'], sorted and without repeats; throws on anything else (the setting's pattern refuses it first). */
export function parseSchedule(text: string): ScheduleDay[] {
  const days = new Set<ScheduleDay>();
  for (const part of text.split(',').map((p) => p.trim().toLowerCase())) {
    if (part === 'last') days.add('last');
    else if (/^\d{1,2}$/.test(part) && Number(part) >= 1 && Number(part) <= 28) days.add(Number(part));
    else throw new RangeError(`GRANT_SCHEDULE: ${JSON.stringify(part)} is not a day from 1 to 28 or "last"`);
  }
  if (days.size === 0) throw new RangeError('GRANT_SCHEDULE names no day');
  const numbers = [...days].filter((d): d is number => d !== 'last').sort((a, b) => a - b);
  return days.has('last') ? [...numbers, 'last'] : numbers;
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number) => String(n).padStart(2, '0');

/** The scheduled dates of one month (`month` 1–12), in date order, each once. */
export function scheduledDatesOfMonth(year: number, month: number, schedule: readonly ScheduleDay[]): CalendarDate[] {
  const last = daysInMonth(year, month);
  const days = new Set(schedule.map((d) => (d === 'last' ? last : d)));
  return [...days].sort((a, b) => a - b).map((d) => `${year}-${pad(month)}-${pad(d)}`);
}

const monthOf = (date: CalendarDate) => [Number(date.slice(0, 4)), Number(date.slice(5, 7))] as const;
const shiftMonth = (year: number, month: number, by: number) => {
  const index = year * 12 + (month - 1) + by;
  return [Math.floor(index / 12), (index % 12) + 1] as const;
};

/** The first scheduled date on or after `date`. */
export function nextScheduledDate(date: CalendarDate, schedule: readonly ScheduleDay[]): CalendarDate {
  const [year, month] = monthOf(date);
  for (let by = 0; by < 2; by++) {
    const found = scheduledDatesOfMonth(...shiftMonth(year, month, by), schedule).find((d) => d >= date);
    if (found) return found;
  }
  throw new Error('unreachable: every month has a scheduled date');
}

/** The last scheduled date on or before `date`. */
export function lastScheduledDate(date: CalendarDate, schedule: readonly ScheduleDay[]): CalendarDate {
  const [year, month] = monthOf(date);
  for (let by = 0; by > -2; by--) {
    const found = scheduledDatesOfMonth(...shiftMonth(year, month, by), schedule)
      .reverse()
      .find((d) => d <= date);
    if (found) return found;
  }
  throw new Error('unreachable: every month has a scheduled date');
}

/** A round's cut-off: the first instant of its day in the foundation's time zone. */
export function cutoffOf(date: CalendarDate, timeZone: string): Date {
  return startOfDate(date, timeZone);
}

/** The scheduled day due at `instant` (today, or the last one before), and the next one after today. */
export function scheduleAt(instant: Date, schedule: readonly ScheduleDay[], timeZone: string) {
  const today = dateIn(instant, timeZone);
  const next = nextScheduledDate(addDays(today, 1), schedule);
  return { due: lastScheduledDate(today, schedule), next, nextAt: cutoffOf(next, timeZone) };
}
