import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Adds one failure to each key's counter of the window starting at `windowStart` and returns each key's count
 * over every instance, in one statement.
 */
export async function countAuthFailures(
  db: Kysely<DB>,
  keys: string[],
  windowStart: Date,
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const result = await sql<{ key: string; count: number }>`
    insert into auth_failure_counters as c (key, window_start, count)
    select key, ${windowStart.toISOString()}::timestamptz, 1 from unnest(${keys}::text[]) as k(key)
    on conflict (key, window_start) do update set count = c.count + 1
    returning key, count`.execute(db);
  return new Map(result.rows.map((row) => [row.key, Number(row.count)]));
}
