import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Counts `requests` requests in a partner's window and returns the window's total across every instance. One atomic
 * statement (the row lock of the upsert orders concurrent checks), so instances sharing the database are exact.
 */
export async function incrementQuotaCounter(
  db: Kysely<DB>,
  partnerId: string,
  windowStart: Date,
  requests: number,
): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    insert into quota_counters as q (partner_id, window_start, count) values (${partnerId}, ${windowStart}, ${requests})
    on conflict (partner_id, window_start) do update set count = q.count + excluded.count
    returning count`.execute(db);
  return Number(rows[0]!.count);
}
