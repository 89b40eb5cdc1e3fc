import { describe, expect, it } from 'vitest';
import { instantOf, isDateTime, isLocalDateTime, isRealInstant } from '../../src/domain/instant.js';
import { canonicalTimeZone, isTimeZone, zoneOffsetAt } from '../../src/domain/local-time.js';
import { ConfigError, loadConfig } from '../../src/config/index.js';

const SYDNEY = 'Australia/Sydney';
const iso = (value: string, timeZone = SYDNEY) => instantOf(value, timeZone)?.toISOString() ?? null;

describe('a date-time without an offset is a wall-clock time of the foundation’s zone', () => {
  it('reads Sydney winter time as +10:00 and summer time as +11:00', () => {
    expect(iso('2026-07-15T09:30:00')).toBe('2026-07-14T23:30:00.000Z');
    expect(iso('2026-11-20T14:03:00')).toBe('2026-11-20T03:03:00.000Z');
  });

  it('keeps fractions of a second as a date-time with an offset does', () => {
    expect(iso('2026-11-20T14:03:00.25')).toBe('2026-11-20T03:03:00.250Z');
    expect(iso('2026-11-20T14:03:00.123456789')).toBe(iso('2026-11-20T14:03:00.123456789+11:00'));
  });

  it('has no instant for the hour skipped when clocks go forward (first Sunday of October, 02:00–03:00)', () => {
    expect(iso('2026-10-04T01:59:59')).toBe('2026-10-03T15:59:59.000Z');
    for (const time of ['02:00:00', '02:30:00', '02:59:59.999']) expect(iso(`2026-10-04T${time}`)).toBeNull();
    expect(iso('2026-10-04T03:00:00')).toBe('2026-10-03T16:00:00.000Z');
  });

  it('takes the earlier instant in the hour repeated when clocks go back (first Sunday of April, 02:00–03:00)', () => {
    // 02:30 is shown first at +11:00 (15:30Z), then again at +10:00 (16:30Z).
    expect(iso('2026-04-05T02:30:00')).toBe('2026-04-04T15:30:00.000Z');
    expect(iso('2026-04-05T02:00:00')).toBe('2026-04-04T15:00:00.000Z');
    expect(iso('2026-04-05T01:59:59')).toBe('2026-04-04T14:59:59.000Z');
    expect(iso('2026-04-05T03:00:00')).toBe('2026-04-04T17:00:00.000Z');
  });

  it('reads another zone the same way, with its own rules', () => {
    // Perth has no daylight saving: +08:00 all year.
    expect(iso('2026-01-15T12:00:00', 'Australia/Perth')).toBe('2026-01-15T04:00:00.000Z');
    expect(iso('2026-10-04T02:30:00', 'Australia/Perth')).toBe('2026-10-03T18:30:00.000Z');
    // New York springs forward on the second Sunday of March and falls back on the first Sunday of November.
    expect(iso('2026-03-08T02:30:00', 'America/New_York')).toBeNull();
    expect(iso('2026-11-01T01:30:00', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(iso('2026-07-04T12:00:00', 'America/New_York')).toBe('2026-07-04T16:00:00.000Z');
  });

  it('reads a date-time with Z or an offset as written, whatever the zone', () => {
    expect(iso('2026-10-04T02:30:00+10:00')).toBe('2026-10-03T16:30:00.000Z');
    expect(iso('2026-11-20T14:03:00Z', 'America/New_York')).toBe('2026-11-20T14:03:00.000Z');
  });

  it('refuses what is no date-time, with or without an offset', () => {
    for (const value of ['2026-02-30T10:00:00', '2026-11-20T24:00:00', '2026-11-20 14:03:00', '1899-12-31T10:00:00']) {
      expect(isDateTime(value)).toBe(false);
      expect(iso(value)).toBeNull();
    }
  });

  it('tells a local date-time from an instant: other date-time fields still need an offset', () => {
    expect(isLocalDateTime('2026-11-20T14:03:00')).toBe(true);
    expect(isRealInstant('2026-11-20T14:03:00')).toBe(false);
    expect(isLocalDateTime('2026-11-20T14:03:00+11:00')).toBe(false);
    expect(isRealInstant('2026-11-20T14:03:00z')).toBe(true);
  });

  it('computes offsets from the zone database, including before 1970', () => {
    expect(zoneOffsetAt(Date.UTC(2026, 0, 1), SYDNEY)).toBe(11 * 3600_000);
    expect(zoneOffsetAt(Date.UTC(2026, 6, 1), SYDNEY)).toBe(10 * 3600_000);
    expect(zoneOffsetAt(Date.UTC(1960, 0, 1, 0, 0, 0, 500), SYDNEY)).toBe(10 * 3600_000);
  });
});

describe('FOUNDATION_TIME_ZONE', () => {
  it('defaults to Australia/Sydney and takes any IANA zone, by its canonical name', () => {
    expect(loadConfig({}).FOUNDATION_TIME_ZONE).toBe(SYDNEY);
    expect(loadConfig({ FOUNDATION_TIME_ZONE: 'australia/perth' }).FOUNDATION_TIME_ZONE).toBe('Australia/Perth');
    expect(isTimeZone('UTC')).toBe(true);
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
  });

  it('stops the start on a name that is no zone, naming the setting', () => {
    expect(isTimeZone('Australia/Gotham')).toBe(false);
    expect(() => loadConfig({ FOUNDATION_TIME_ZONE: 'Australia/Gotham' })).toThrow(ConfigError);
    expect(() => loadConfig({ FOUNDATION_TIME_ZONE: 'AEST+10' })).toThrow(
      /FOUNDATION_TIME_ZONE: must be an IANA time zone/,
    );
  });
});
