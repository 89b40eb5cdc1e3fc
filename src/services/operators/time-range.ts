import { InvalidInputError } from './operator-errors.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An operator's date or timestamp. A bare date is a UTC calendar day; `--to` includes its whole day (so
 * "--from 2026-11-01 --to 2026-11-30" is November). A timestamp with an offset is taken as written.
 */
export function parseInstant(value: string, option: string, end: 'start' | 'end'): Date {
  const isDay = DAY.test(value);
  const at = new Date(isDay ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(at.getTime()) || (!isDay && !/T\d{2}:\d{2}/.test(value))) {
    throw new InvalidInputError(
      `${option} ${JSON.stringify(value)} is not a date (YYYY-MM-DD) or an ISO 8601 timestamp.`,
    );
  }
  return isDay && end === 'end' ? new Date(at.getTime() + 86_400_000) : at;
}

export interface TimeRange {
  from?: Date;
  /** Exclusive. */
  until?: Date;
}

export function parseTimeRange(from: string | undefined, to: string | undefined): TimeRange {
  const range: TimeRange = {
    from: from === undefined ? undefined : parseInstant(from, '--from', 'start'),
    until: to === undefined ? undefined : parseInstant(to, '--to', 'end'),
  };
  if (range.from && range.until && range.from >= range.until)
    throw new InvalidInputError('--from must be before --to.');
  return range;
}
