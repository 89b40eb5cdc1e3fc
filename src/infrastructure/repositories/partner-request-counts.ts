import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Rows deleted per statement when pruning: short transactions however large the backlog. */
const PRUNE_CHUNK = 5000;

/** The requests of one partner, minute, route and status, as one writer's batch counted them. */
export interface RequestCount {
  partnerId: string;
  /** The minute's start. */
  minute: Date;
  /** '' when the request's credential named none. */
  environment: string;
  method: string;
  route: string;
  status: number;
  requests: number;
  latencyUsTotal: number;
  latencyUsMax: number;
}

/**
 * Adds a batch's counts, one statement of one array per column (docs/decisions/0092-successful-reads-counted-not-
 * itemised.md). The batch holds each key once (the writer sums before), and in one order, so that two instances
 * adding the same minutes take the rows' locks in the same order and never deadlock.
 */
export async function addPartnerRequestCounts(db: Kysely<DB>, counts: RequestCount[]): Promise<void> {
  if (counts.length === 0) return;
  const sorted = [...counts].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  const column = <K extends keyof RequestCount>(key: K) => sorted.map((count) => count[key]);
  await sql`
    insert into partner_request_counts as c (partner_id, minute, environment, method, route, status, requests,
      latency_us_total, latency_us_max)
    select * from unnest(${column('partnerId')}::uuid[], ${sorted.map((c) => c.minute.toISOString())}::timestamptz[],
      ${column('environment')}::text[], ${column('method')}::text[], ${column('route')}::text[],
      ${column('status')}::smallint[], ${column('requests')}::integer[], ${column('latencyUsTotal')}::bigint[],
      ${column('latencyUsMax')}::integer[])
    on conflict (partner_id, minute, method, route, status, environment) do update set
      requests = c.requests + excluded.requests,
      latency_us_total = c.latency_us_total + excluded.latency_us_total,
      latency_us_max = greatest(c.latency_us_max, excluded.latency_us_max)`.execute(db);
}

/** The key a count is summed under, and the order counts are written in. */
export function keyOf(count: Omit<RequestCount, 'requests' | 'latencyUsTotal' | 'latencyUsMax'>): string {
  return [count.partnerId, count.minute.getTime(), count.method, count.route, count.status, count.environment].join(
    '\u0000',
  );
}

/** Deletes the counts of minutes before `before`, a chunk per statement; the number deleted. */
export async function prunePartnerRequestCounts(db: Kysely<DB>, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await sql`
      delete from partner_request_counts where ctid in (
        select ctid from partner_request_counts where minute < ${before} order by minute limit ${PRUNE_CHUNK})`.execute(
      db,
    );
    const deleted = Number(result.numAffectedRows ?? 0);
    total += deleted;
    if (deleted < PRUNE_CHUNK) return total;
  }
}

/** Requests and errors (status ≥ 400) per day (in `timeZone`) since `since`. */
export async function requestsPerDay(
  db: Kysely<DB>,
  partnerId: string,
  since: Date,
  timeZone: string,
): Promise<{ day: string; requests: number; errors: number }[]> {
  const { rows } = await sql<{ day: string; requests: string; errors: string | null }>`
    select to_char(minute at time zone ${timeZone}, 'YYYY-MM-DD') as day, sum(requests) as requests,
           sum(requests) filter (where status >= 400) as errors
    from partner_request_counts where partner_id = ${partnerId} and minute >= ${since}
    group by 1 order by 1`.execute(db);
  return rows.map((r) => ({ day: r.day, requests: Number(r.requests), errors: Number(r.errors ?? 0) }));
}

/** Errors (status ≥ 400) per route and status from the day `firstDay` (in `timeZone`), most first. */
export async function errorsPerRoute(
  db: Kysely<DB>,
  partnerId: string,
  { since, timeZone, firstDay }: { since: Date; timeZone: string; firstDay: string },
): Promise<{ method: string; route: string; status: number; errors: number }[]> {
  const { rows } = await sql<{ method: string; route: string; status: number; errors: string }>`
    select method, route, status, sum(requests) as errors
    from partner_request_counts where partner_id = ${partnerId} and minute >= ${since} and status >= 400
      and to_char(minute at time zone ${timeZone}, 'YYYY-MM-DD') >= ${firstDay}
    group by method, route, status order by sum(requests) desc, route, method, status`.execute(db);
  return rows.map((r) => ({ method: r.method, route: r.route, status: Number(r.status), errors: Number(r.errors) }));
}

/** Requests counted from the minute of `since` (the current quota window's start). */
export async function requestsSince(db: Kysely<DB>, partnerId: string, since: Date): Promise<number> {
  const { rows } = await sql<{ n: string | null }>`
    select sum(requests) as n from partner_request_counts
    where partner_id = ${partnerId} and minute >= date_trunc('minute', ${since}::timestamptz)`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
