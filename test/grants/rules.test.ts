import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeBasisPoints, feeCents } from '../../src/domain/grants/fee.js';
import { decideLine, HOLD_REASONS, holdReasons, type LineFacts } from '../../src/domain/grants/line.js';
import { lodgementReference, lodgementReferencesIn } from '../../src/domain/grants/lodgement.js';
import {
  cutoffOf,
  lastScheduledDate,
  nextScheduledDate,
  parseSchedule,
  scheduleAt,
  scheduledDatesOfMonth,
} from '../../src/domain/grants/schedule.js';

const payable: LineFacts = {
  donationsCents: 10_000n,
  recoveredCents: 0n,
  reissuedCents: 0n,
  hasVerifiedDetails: true,
  detailsPayable: true,
  paymentReturned: false,
  acquittalOverdue: false,
};

describe('the fee', () => {
  it('reads GRANT_FEE_PERCENT as basis points, digit by digit', () => {
    expect(feeBasisPoints('0')).toBe(0);
    expect(feeBasisPoints('2.5')).toBe(250);
    expect(feeBasisPoints('2.55')).toBe(255);
    expect(feeBasisPoints('100')).toBe(10_000);
    expect(feeBasisPoints('100.01')).toBeNull();
    expect(feeBasisPoints('1.234')).toBeNull();
    expect(feeBasisPoints('-1')).toBeNull();
  });

  it('rounds half up to the cent', () => {
    expect(feeCents(1_000n, 250)).toBe(25n); // 25.00 exactly
    expect(feeCents(1_010n, 250)).toBe(25n); // 25.25 → 25
    expect(feeCents(1_020n, 250)).toBe(26n); // 25.50 → 26 (half up)
    expect(feeCents(1_030n, 250)).toBe(26n); // 25.75 → 26
    expect(feeCents(0n, 250)).toBe(0n);
    expect(feeCents(12_345n, 0)).toBe(0n);
  });

  it('is the exact fraction rounded half up, never more than the donations, for any amount and rate', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 10_000 }), (cents, points) => {
        const fee = feeCents(cents, points);
        const exactTimes10000 = cents * BigInt(points);
        // fee − 0.5 ≤ exact < fee + 0.5, in units of 1/10000 of a cent.
        expect(fee * 10_000n - 5_000n <= exactTimes10000).toBe(true);
        expect(exactTimes10000 < fee * 10_000n + 5_000n).toBe(true);
        expect(fee >= 0n && fee <= cents).toBe(true);
      }),
    );
  });

  it('percent strings and basis points agree: p% of 100.00 is p×100 cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 99 }), (whole, fraction) => {
        const text = whole === 100 ? '100' : `${whole}.${String(fraction).padStart(2, '0')}`;
        const points = feeBasisPoints(text)!;
        expect(feeCents(10_000n, points)).toBe(BigInt(points));
      }),
    );
  });
});

describe("a club's line", () => {
  it('is donations − recovered + reissued − fee', () => {
    const line = decideLine(
      { ...payable, donationsCents: 10_000n, recoveredCents: 1_500n, reissuedCents: 3_000n },
      { feeBasisPoints: 250, minimumCents: 2_000n },
    );
    expect(line).toEqual({ feeCents: 250n, amountCents: 11_250n, holdReason: null });
  });

  it('holds a balance under the minimum, and a negative one', () => {
    const terms = { feeBasisPoints: 0, minimumCents: 2_000n };
    expect(decideLine({ ...payable, donationsCents: 1_999n }, terms).holdReason).toBe('under_minimum');
    expect(decideLine({ ...payable, donationsCents: 2_000n }, terms).holdReason).toBeNull();
    expect(decideLine({ ...payable, donationsCents: 100n, recoveredCents: 500n }, terms)).toEqual({
      feeCents: 0n,
      amountCents: -400n,
      holdReason: 'negative_balance',
    });
    expect(decideLine({ ...payable, donationsCents: 0n }, { ...terms, minimumCents: 0n }).holdReason).toBe(
      'under_minimum',
    );
  });

  it('reports the first reason in precedence order', () => {
    const all: LineFacts = {
      ...payable,
      hasVerifiedDetails: false,
      detailsPayable: false,
      paymentReturned: true,
      acquittalOverdue: true,
      recoveredCents: 20_000n,
    };
    expect(holdReasons(all, -10_000n, 2_000n)).toEqual([
      'no_bank_details',
      'payment_returned',
      'acquittal_overdue',
      'negative_balance',
    ]);
    const terms = { feeBasisPoints: 0, minimumCents: 2_000n };
    expect(decideLine({ ...payable, detailsPayable: false, acquittalOverdue: true }, terms).holdReason).toBe(
      'bank_details_on_hold',
    );
    expect(decideLine({ ...payable, paymentReturned: true, acquittalOverdue: true }, terms).holdReason).toBe(
      'payment_returned',
    );
    expect(decideLine({ ...payable, acquittalOverdue: true, donationsCents: 1n }, terms).holdReason).toBe(
      'acquittal_overdue',
    );
  });

  it('is paid only when no reason applies, and then pays a positive amount at least the minimum', () => {
    const facts = fc.record({
      donationsCents: fc.bigInt({ min: 0n, max: 10n ** 12n }),
      recoveredCents: fc.bigInt({ min: 0n, max: 10n ** 12n }),
      reissuedCents: fc.bigInt({ min: 0n, max: 10n ** 12n }),
      hasVerifiedDetails: fc.boolean(),
      detailsPayable: fc.boolean(),
      paymentReturned: fc.boolean(),
      acquittalOverdue: fc.boolean(),
    });
    fc.assert(
      fc.property(facts, fc.integer({ min: 0, max: 10_000 }), fc.bigInt({ min: 0n, max: 10n ** 6n }), (f, bp, min) => {
        const line = decideLine(f, { feeBasisPoints: bp, minimumCents: min });
        expect(line.amountCents).toBe(f.donationsCents - f.recoveredCents + f.reissuedCents - line.feeCents);
        if (line.holdReason === null) {
          expect(line.amountCents > 0n && line.amountCents >= min).toBe(true);
          expect(f.hasVerifiedDetails && f.detailsPayable && !f.paymentReturned && !f.acquittalOverdue).toBe(true);
        } else {
          expect(HOLD_REASONS).toContain(line.holdReason);
        }
      }),
    );
  });
});

describe('the schedule', () => {
  it('reads GRANT_SCHEDULE', () => {
    expect(parseSchedule('15,last')).toEqual([15, 'last']);
    expect(parseSchedule(' last , 1, 15, 1 ')).toEqual([1, 15, 'last']);
    expect(() => parseSchedule('29')).toThrow(/29/);
    expect(() => parseSchedule('15,,last')).toThrow();
  });

  it('has the 15th and the last day of each month, leap years included', () => {
    const schedule = parseSchedule('15,last');
    expect(scheduledDatesOfMonth(2027, 2, schedule)).toEqual(['2027-02-15', '2027-02-28']);
    expect(scheduledDatesOfMonth(2028, 2, schedule)).toEqual(['2028-02-15', '2028-02-29']);
    expect(scheduledDatesOfMonth(2026, 12, schedule)).toEqual(['2026-12-15', '2026-12-31']);
    expect(nextScheduledDate('2026-12-16', schedule)).toBe('2026-12-31');
    expect(nextScheduledDate('2027-01-01', schedule)).toBe('2027-01-15');
    expect(lastScheduledDate('2027-01-14', schedule)).toBe('2026-12-31');
    expect(lastScheduledDate('2027-01-15', schedule)).toBe('2027-01-15');
  });

  it('cuts off at the start of the scheduled day in the foundation’s zone', () => {
    expect(cutoffOf('2026-12-15', 'Australia/Sydney').toISOString()).toBe('2026-12-14T13:00:00.000Z');
    expect(cutoffOf('2026-06-30', 'Australia/Sydney').toISOString()).toBe('2026-06-29T14:00:00.000Z');
    // 15 December 00:30 in Sydney is still 14 December in UTC: the 15th is due there.
    const at = scheduleAt(new Date('2026-12-14T13:30:00Z'), parseSchedule('15,last'), 'Australia/Sydney');
    expect(at).toEqual({ due: '2026-12-15', next: '2026-12-31', nextAt: new Date('2026-12-30T13:00:00Z') });
  });

  it('finds, for any date and schedule, the nearest scheduled dates around it', () => {
    const day = fc.oneof(fc.integer({ min: 1, max: 28 }), fc.constant('last' as const));
    const date = fc
      .date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2998-12-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.array(day, { minLength: 1, maxLength: 5 }), date, (days, today) => {
        const schedule = parseSchedule(days.join(','));
        const next = nextScheduledDate(today, schedule);
        const last = lastScheduledDate(today, schedule);
        expect(next >= today && last <= today).toBe(true);
        const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
        const thisMonth = scheduledDatesOfMonth(year, month, schedule);
        // Nothing scheduled strictly between them this month.
        expect(thisMonth.filter((d) => d > last && d < next)).toEqual([]);
      }),
    );
  });
});

describe('lodgement references', () => {
  it('fit the ABA field and are found again in a bank line', () => {
    expect(lodgementReference(999_999_999, 999_999).length).toBeLessThanOrEqual(18);
    expect(lodgementReferencesIn('Return fg12-3 acct closed')).toEqual(['FG12-3']);
    expect(lodgementReferencesIn('FG12-30 and FG12-3')).toEqual(['FG12-30', 'FG12-3']);
  });
});
