import type { Kysely } from 'kysely';
import { dateIn, type CalendarDate } from '../../domain/calendar-date.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { clockOffsets } from '../../infrastructure/repositories/sandbox-clocks.js';

/**
 * What time it is for each partner. In production, the real time for all; in the sandbox a partner may have moved
 * its clock forward (POST /sandbox/clock/advance) to see a year of debits in a minute: its plans fall due, its
 * simulated payments settle and its failed debits are retried by that clock.
 */
export class PartnerClocks {
  private constructor(
    private readonly offsets: Map<string, number>,
    private readonly realNow: Date,
    private readonly timeZone: string,
  ) {}

  /** Reads the partners' offsets once (a small table); `now` is the real time. */
  static async read(db: Kysely<DB>, now: Date, timeZone: string): Promise<PartnerClocks> {
    return new PartnerClocks(await clockOffsets(db), now, timeZone);
  }

  nowOf(partnerId: string): Date {
    return new Date(this.realNow.getTime() + (this.offsets.get(partnerId) ?? 0) * 1000);
  }

  /** The foundation's calendar date for the partner. */
  todayOf(partnerId: string): CalendarDate {
    return dateIn(this.nowOf(partnerId), this.timeZone);
  }

  /** The foundation's date by the real clock: every partner's but those whose clock runs ahead. */
  realToday(): CalendarDate {
    return dateIn(this.realNow, this.timeZone);
  }

  /** The same clocks, but `partnerId`'s set `offsetSeconds` ahead (the sandbox clock's walk, step by step). */
  withOffset(partnerId: string, offsetSeconds: number): PartnerClocks {
    return new PartnerClocks(new Map([...this.offsets, [partnerId, offsetSeconds]]), this.realNow, this.timeZone);
  }

  /** How far `partnerId`'s clock runs ahead, in seconds. */
  offsetOf(partnerId: string): number {
    return this.offsets.get(partnerId) ?? 0;
  }

  /** Partners whose clock runs ahead, with their dates: each needs its own look for due work. */
  aheadOfTime(): { partnerId: string; today: CalendarDate }[] {
    return [...this.offsets.entries()]
      .filter(([, offset]) => offset > 0)
      .map(([partnerId]) => ({ partnerId, today: this.todayOf(partnerId) }));
  }
}
