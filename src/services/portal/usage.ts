import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  errorsPerRoute,
  requestsPerDay,
  requestsSince,
} from '../../infrastructure/repositories/partner-request-counts.js';
import { findPartner } from '../../infrastructure/repositories/partners.js';

export interface PartnerUsage {
  /** Every day of the period, oldest first, zeros included (a chart's x axis). */
  days: { day: string; requests: number; errors: number }[];
  /** Errors (status ≥ 400) per route and status over the period, most first. */
  errorsByRoute: { method: string; route: string; status: number; errors: number }[];
  /** Requests counted from the minute the quota's current window began, against its limit. */
  quota: { used: number; limit: number; windowSeconds: number; windowStart: Date };
}

/** The calendar dates (YYYY-MM-DD in `timeZone`) of the `days` days ending with today's. */
function lastDays(now: Date, days: number, timeZone: string): string[] {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const dates = new Set<string>();
  for (let back = days + 1; back >= 0; back--) dates.add(format.format(new Date(now.getTime() - back * 86_400_000)));
  return [...dates].slice(-days);
}

/**
 * A partner's usage over the last `days` days, from its request log's counts per minute (docs/decisions/0092-
 * successful-reads-counted-not-itemised.md): requests and errors per day (the foundation's dates), errors per route, and the requests of
 * the quota's current window (fixed windows aligned as the quota store aligns them) against the partner's limit.
 * Null for an unknown partner.
 */
export async function partnerUsage(
  db: Kysely<DB>,
  partnerId: string,
  { days, now, timeZone }: { days: number; now: Date; timeZone: string },
): Promise<PartnerUsage | null> {
  const partner = await findPartner(db, partnerId);
  if (!partner) return null;
  const dates = lastDays(now, days, timeZone);
  // From a day before the first date: the query's days are the zone's, the bound an instant.
  const since = new Date(now.getTime() - (days + 1) * 86_400_000);
  const counted = new Map((await requestsPerDay(db, partnerId, since, timeZone)).map((d) => [d.day, d]));
  const windowMs = partner.quota_window_seconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  return {
    days: dates.map((day) => counted.get(day) ?? { day, requests: 0, errors: 0 }),
    errorsByRoute: await errorsPerRoute(db, partnerId, { since, timeZone, firstDay: dates[0] ?? '' }),
    quota: {
      used: await requestsSince(db, partnerId, windowStart),
      limit: partner.quota_limit,
      windowSeconds: partner.quota_window_seconds,
      windowStart,
    },
  };
}
