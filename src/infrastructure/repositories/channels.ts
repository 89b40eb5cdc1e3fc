import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export async function listChannels(db: Kysely<DB>): Promise<string[]> {
  const rows = await db.selectFrom('channels').select('name').orderBy('name').execute();
  return rows.map((row) => row.name);
}
