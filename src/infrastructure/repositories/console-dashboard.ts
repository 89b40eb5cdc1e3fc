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

export async function donationsPerDay(db: Kysely<DB>, from: Date): Promise<DailyDonations[]> {
  const day = sql<string>`to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('donations as d')
    .innerJoin('partners as p', 'p.id', 'd.partner_id')
    .select([
      day.as('day'),
      'p.name as partnerName',
      'd.channel',
      sql<string>`count(*)`.as('count'),
      sql<string>`coalesce(sum(d.amount_cents), 0)`.as('totalCents'),
    ])
    .where('d.created_at', '>=', from)
    .groupBy([day, 'p.name', 'd.channel'])
    .orderBy(day)
    .execute();
  return rows.map((r) => ({ ...r, count: Number(r.count), totalCents: Number(r.totalCents) }));
}

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
