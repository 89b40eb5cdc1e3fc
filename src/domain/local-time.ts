/**
 * Wall-clock times of a named time zone, read with the IANA database Node carries (full ICU): daylight saving and
 * every historical change come from there, never from rules written here.
 */

/** One formatter per zone: building one costs far more than formatting with it, and it holds no data. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** Whether `timeZone` is a zone Intl knows (an IANA name such as Australia/Sydney, or UTC): it throws RangeError otherwise. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch (err) {
    if (err instanceof RangeError) return false;
    throw err;
  }
}

/** The zone's canonical name (`australia/sydney` → `Australia/Sydney`), for messages and logs. */
export function canonicalTimeZone(timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
}

const SECOND = 1000;
const DAY = 86_400_000;

/** The zone's offset from UTC at `instant` (milliseconds since the epoch), in milliseconds: +10:00 is 36,000,000. */
export function zoneOffsetAt(instant: number, timeZone: string): number {
  const field: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') field[part.type] = Number(part.value);
  }
  const wall = Date.UTC(field.year!, field.month! - 1, field.day, field.hour, field.minute, field.second);
  // The formatter shows whole seconds: compare with the instant's whole second (floor, also before 1970).
  return wall - (instant - (((instant % SECOND) + SECOND) % SECOND));
}

/**
 * The instant at which the zone's clocks show `wall` (a wall-clock time written as if it were UTC, in milliseconds),
 * or null when they never do: the hour skipped when clocks go forward. When they show it twice (the hour repeated
 * when clocks go back) the earlier instant is taken, as most date libraries do.
 *
 * The two-pass technique, done for every candidate: each offset the zone has within a day of the wall time is
 * tried, and it is right when the zone's offset at the instant it gives is that same offset. A repeated hour then
 * has two right offsets (the larger one gives the earlier instant) and a skipped hour none.
 */
export function instantOfWallTime(wall: number, timeZone: string): number | null {
  const candidates = [
    ...new Set([zoneOffsetAt(wall - DAY, timeZone), zoneOffsetAt(wall, timeZone), zoneOffsetAt(wall + DAY, timeZone)]),
  ].sort((a, b) => b - a);
  for (const offset of candidates) {
    if (zoneOffsetAt(wall - offset, timeZone) === offset) return wall - offset;
  }
  return null;
}
