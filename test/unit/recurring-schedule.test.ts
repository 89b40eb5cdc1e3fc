import { describe, expect, it } from 'vitest';
import { addMonths, dateIn, isCalendarDate, startOfDate } from '../../src/domain/calendar-date.js';
import { addDuration, parseDuration } from '../../src/domain/duration.js';
import { debitFailure, nextAttemptDate, scheduledDate } from '../../src/domain/recurring.js';

const plan = (startDate: string, frequency: 'weekly' | 'fortnightly' | 'monthly' | 'quarterly' | 'yearly') => ({
  startDate,
  frequency,
  endDate: null,
  maxDebits: null,
});

describe('a plan’s schedule', () => {
  it('counts every debit from the start date, so month ends never drift', () => {
    const dates = Array.from({ length: 5 }, (_, i) => scheduledDate(plan('2027-01-31', 'monthly'), i));
    expect(dates).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
    expect(scheduledDate(plan('2028-01-31', 'monthly'), 1)).toBe('2028-02-29');
    expect(scheduledDate(plan('2028-02-29', 'yearly'), 1)).toBe('2029-02-28');
    expect(scheduledDate(plan('2028-02-29', 'yearly'), 4)).toBe('2032-02-29');
  });

  it('steps by its frequency', () => {
    expect(scheduledDate(plan('2026-12-28', 'weekly'), 1)).toBe('2027-01-04');
    expect(scheduledDate(plan('2026-12-28', 'fortnightly'), 2)).toBe('2027-01-25');
    expect(scheduledDate(plan('2026-11-30', 'quarterly'), 1)).toBe('2027-02-28');
    expect(scheduledDate(plan('2026-11-30', 'quarterly'), 2)).toBe('2027-05-30');
  });

  it('ends at its end date or its number of debits, whichever comes first', () => {
    const byDate = { ...plan('2027-01-01', 'monthly'), endDate: '2027-03-01' };
    expect([0, 1, 2, 3].map((i) => scheduledDate(byDate, i))).toEqual(['2027-01-01', '2027-02-01', '2027-03-01', null]);
    const byCount = { ...plan('2027-01-01', 'weekly'), maxDebits: 2, endDate: '2027-12-31' };
    expect([0, 1, 2].map((i) => scheduledDate(byCount, i))).toEqual(['2027-01-01', '2027-01-08', null]);
  });
});

describe('failed debits', () => {
  it('are tried again per the policy, unless the bank refused for good', () => {
    const funds = debitFailure('insufficient_funds');
    expect(funds).toMatchObject({ retryable: true, mandateEnded: false, message: 'Insufficient funds in the account' });
    expect(nextAttemptDate('2027-01-30', 1, funds, [3, 7])).toBe('2027-02-02');
    expect(nextAttemptDate('2027-02-02', 2, funds, [3, 7])).toBe('2027-02-09');
    expect(nextAttemptDate('2027-02-09', 3, funds, [3, 7])).toBeNull();
    const closed = debitFailure('account_closed');
    expect(closed).toMatchObject({ retryable: false, mandateEnded: true });
    expect(nextAttemptDate('2027-01-30', 1, closed, [3, 7])).toBeNull();
  });

  it('name an unknown code in plain words and retry it', () => {
    expect(debitFailure('weird_code', 'Bank says no')).toEqual({
      code: 'weird_code',
      message: 'The bank refused the debit: Bank says no',
      retryable: true,
      mandateEnded: false,
    });
  });
});

describe('calendar dates and the sandbox clock’s durations', () => {
  it('reads real dates only', () => {
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-13-01')).toBe(false);
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
  });

  it('tells the Sydney date of an instant, across daylight saving', () => {
    expect(dateIn(new Date('2026-11-30T13:30:00Z'), 'Australia/Sydney')).toBe('2026-12-01'); // +11:00
    expect(dateIn(new Date('2026-06-30T13:30:00Z'), 'Australia/Sydney')).toBe('2026-06-30'); // +10:00
    expect(startOfDate('2026-12-01', 'Australia/Sydney').toISOString()).toBe('2026-11-30T13:00:00.000Z');
  });

  it('moves on by calendar months and days, and by elapsed hours', () => {
    expect(parseDuration('P1Y2M3W4DT5H6M')).toEqual({ months: 14, days: 25, minutes: 306 });
    expect(parseDuration('P')).toBeNull();
    expect(parseDuration('PT')).toBeNull();
    expect(parseDuration('1M')).toBeNull();
    const zone = 'Australia/Sydney';
    // 10:00 on 31 January (+11:00) → 10:00 on 28 February, still +11:00.
    expect(addDuration(new Date('2027-01-30T23:00:00Z'), { months: 1, days: 0, minutes: 0 }, zone).toISOString()).toBe(
      '2027-02-27T23:00:00.000Z',
    );
    // A day across the end of daylight saving (03:00 on 4 April 2027) is 25 hours of elapsed time: 10:00 on the
    // 3rd (+11:00) is followed by 10:00 on the 4th (+10:00).
    expect(addDuration(new Date('2027-04-02T23:00:00Z'), { months: 0, days: 1, minutes: 0 }, zone).toISOString()).toBe(
      '2027-04-04T00:00:00.000Z',
    );
    expect(addDuration(new Date('2027-01-01T00:00:00Z'), { months: 0, days: 0, minutes: 90 }, zone).toISOString()).toBe(
      '2027-01-01T01:30:00.000Z',
    );
  });
});
