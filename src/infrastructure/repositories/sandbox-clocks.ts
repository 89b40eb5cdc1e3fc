import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Every partner whose sandbox clock runs ahead, and by how many seconds. */
export async function clockOffsets(db: Kysely<DB>): Promise<Map<string, number>> {
  const rows = await db.selectFrom('sandbox_clocks').select(['partner_id', 'offset_seconds']).execute();
  return new Map(rows.map((row) => [row.partner_id, Number(row.offset_seconds)]));
}

/** Moves a partner's clock forward by `seconds`; returns its new offset. */
export async function advanceClock(db: Kysely<DB>, partnerId: string, seconds: number): Promise<number> {
  const row = await sql<{ offset_seconds: string | number }>`
    insert into sandbox_clocks as c (partner_id, offset_seconds) values (${partnerId}, ${seconds})
    on conflict (partner_id) do update set offset_seconds = c.offset_seconds + ${seconds}, updated_at = now()
    returning offset_seconds`.execute(db);
  return Number(row.rows[0]!.offset_seconds);
}
