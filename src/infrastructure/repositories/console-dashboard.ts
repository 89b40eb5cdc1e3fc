import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Aggregates for the console's dashboard (migration 015 for the rejection counts). */
export interface DailyDonations {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  partnerName: string;
  channel: string;
  count: number;
  totalCents: number;
}

/**
 * Donations per UTC day, partner (by name) and channel since `from` (the start of a UTC day), read from the daily
 * rollup of migration 047: as many rows as days, partners and channels, whatever the traffic and age of the database.
 */
export async function donationsPerDay(db: Kysely<DB>, from: Date): Promise<DailyDonations[]> {
  const day = sql<string>`to_char(r.day, 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('daily_donations as r')
    .innerJoin('partners as p', 'p.id', 'r.partner_id')
    .select([
      day.as('day'),
      'p.name as partnerName',
      'r.channel',
      sql<string>`sum(r.count)`.as('count'),
      sql<string>`sum(r.total_cents)`.as('totalCents'),
    ])
    .where('r.day', '>=', isoDay(from))
    .groupBy([day, 'p.name', 'r.channel'])
    .orderBy(day)
    .execute();
  return rows.map((r) => ({ ...r, count: Number(r.count), totalCents: Number(r.totalCents) }));
}

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

export interface RejectionCount {
  day: string;
  kind: 'authentication' | 'quota';
  /** Null when the caller could not be identified (bad credentials). */
  partnerName: string | null;
  count: number;
}

export async function rejectionsSince(db: Kysely<DB>, fromDay: string): Promise<RejectionCount[]> {
  const rows = await db
    .selectFrom('request_rejections as r')
    .leftJoin('partners as p', (join) => join.on(sql`p.id::text`, '=', sql.ref('r.partner_id')))
    .select([sql<string>`to_char(r.day, 'YYYY-MM-DD')`.as('day'), 'r.kind', 'p.name as partnerName', 'r.count'])
    .where('r.day', '>=', fromDay)
    .orderBy('r.day', 'desc')
    .orderBy('r.kind')
    .execute();
  return rows.map((r) => ({ ...r, partnerName: r.partnerName ?? null, count: Number(r.count) }));
}

/** Adds counts (one statement for all of them): what each instance does every few seconds. */
export async function addRejections(
  db: Kysely<DB>,
  counts: { day: string; kind: 'authentication' | 'quota'; partnerId: string; count: number }[],
): Promise<void> {
  if (counts.length === 0) return;
  await db
    .insertInto('request_rejections')
    .values(counts.map((c) => ({ day: c.day, kind: c.kind, partner_id: c.partnerId, count: c.count })))
    .onConflict((oc) =>
      oc.columns(['day', 'kind', 'partner_id']).doUpdateSet({ count: sql`request_rejections.count + excluded.count` }),
    )
    .execute();
}

/**
 * What the foundation owes clubs as the latest round (not cancelled) counted it at its cut-off, from the rounds' own
 * lines so that the dashboard never reads every settlement: its lines not paid yet (a draft's or an approved
 * round's), the balances it held, and returned grants not paid again. Donations settled since wait for the next
 * round and are not in it.
 */
export interface GrantFigures {
  /** The latest round's number, or null before the first. */
  round: number | null;
  owedCents: number;
  heldCents: number;
  heldCount: number;
}

export async function grantFigures(db: Kysely<DB>): Promise<GrantFigures> {
  const { rows } = await sql<{
    round: number | null;
    unpaid: string;
    returned: string;
    held: string;
    held_count: number;
  }>`
    with latest as (select id, number, status from grant_rounds where status <> 'cancelled' order by number desc limit 1)
    select
      (select number from latest) as round,
      (select coalesce(sum(g.amount_cents), 0) from grants g join latest l on l.id = g.round_id
        where g.status = 'payable' and l.status in ('draft', 'approved')) as unpaid,
      (select coalesce(sum(amount_cents), 0) from grants where status = 'returned' and reissued_in is null) as returned,
      (select coalesce(sum(greatest(g.amount_cents, 0)), 0) from grants g join latest l on l.id = g.round_id
        where g.status = 'held') as held,
      (select count(*)::int from grants g join latest l on l.id = g.round_id where g.status = 'held') as held_count`.execute(
    db,
  );
  const row = rows[0]!;
  const heldCents = Number(row.held);
  return {
    round: row.round === null ? null : Number(row.round),
    owedCents: Number(row.unpaid) + Number(row.returned) + heldCents,
    heldCents,
    heldCount: Number(row.held_count),
  };
}
