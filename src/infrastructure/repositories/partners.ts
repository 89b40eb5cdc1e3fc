import type { Kysely } from 'kysely';
import type { DB, Partner } from '../db/schema.js';

export interface NewPartner {
  name: string;
  channels: string[];
  quotaLimit: number;
  quotaWindowSeconds: number;
}

export async function insertPartner(db: Kysely<DB>, partner: NewPartner): Promise<Partner> {
  const row = await db
    .insertInto('partners')
    .values({ name: partner.name, quota_limit: partner.quotaLimit, quota_window_seconds: partner.quotaWindowSeconds })
    .returningAll()
    .executeTakeFirstOrThrow();
  await setPartnerChannels(db, row.id, partner.channels);
  return row;
}

export async function setPartnerChannels(db: Kysely<DB>, partnerId: string, channels: string[]): Promise<void> {
  await db.deleteFrom('partner_channels').where('partner_id', '=', partnerId).execute();
  if (channels.length > 0) {
    await db.insertInto('partner_channels').values(channels.map((channel) => ({ partner_id: partnerId, channel }))).execute();
  }
}

export async function countPartners(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('partners').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
