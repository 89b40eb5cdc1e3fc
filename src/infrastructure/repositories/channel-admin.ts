import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface ChannelUsage {
  name: string;
  createdAt: Date;
  partners: number;
  products: number;
}

/** Channels with how many partners were issued them and how many fundraiser products use them. */
export async function listChannelUsage(db: Kysely<DB>): Promise<ChannelUsage[]> {
  return db
    .selectFrom('channels as ch')
    .select([
      'ch.name',
      'ch.created_at as createdAt',
      sql<number>`(select count(*) from partner_channels pc where pc.channel = ch.name)::int`.as('partners'),
      sql<number>`(select count(*) from products pr where pr.channel = ch.name)::int`.as('products'),
    ])
    .orderBy('ch.name')
    .execute();
}

/** Inserts the channel; false when it already exists. */
export async function insertChannel(db: Kysely<DB>, name: string, at: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('channels')
    .values({ name, created_at: at })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('name')
    .executeTakeFirst();
  return inserted !== undefined;
}
