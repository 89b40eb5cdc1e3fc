import { sql, type Kysely } from 'kysely';
import { isUuid } from '../../domain/uuid.js';
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
    await db
      .insertInto('partner_channels')
      .values(channels.map((channel) => ({ partner_id: partnerId, channel })))
      .execute();
  }
}

export async function countPartners(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('partners')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A partner with its channels and how many of its credentials can still be used, as operators see it. */
export interface PartnerSummary extends Partner {
  channels: string[];
  usableCredentials: number;
  /** Wrong secrets sent with any of its client ids in the last 24 hours: someone may be guessing one. */
  failedAuthentications24h: number;
}

const DAY_MS = 24 * 3600 * 1000;

/** A partner by id or by exact name (names are unique). */
export async function findPartner(db: Kysely<DB>, idOrName: string): Promise<Partner | undefined> {
  return db
    .selectFrom('partners')
    .selectAll()
    .where((eb) =>
      isUuid(idOrName) ? eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]) : eb('name', '=', idOrName),
    )
    .executeTakeFirst();
}

export async function listPartnerSummaries(
  db: Kysely<DB>,
  filter: { status?: string; id?: string },
  now: Date,
): Promise<PartnerSummary[]> {
  let query = db
    .selectFrom('partners as p')
    .selectAll('p')
    .select([
      sql<
        string[]
      >`coalesce((select array_agg(pc.channel order by pc.channel) from partner_channels pc where pc.partner_id = p.id), '{}')`.as(
        'channels',
      ),
      sql<number>`(select count(*) from credentials c where c.partner_id = p.id
        and (c.revoked_at is null or c.revoked_at > ${now}) and (c.expires_at is null or c.expires_at > ${now}))::int`.as(
        'usableCredentials',
      ),
      sql<number>`(select coalesce(sum(f.count), 0) from credentials c
        join auth_failure_counters f on f.key = 'client:' || c.client_id
        where c.partner_id = p.id and f.window_start > ${new Date(now.getTime() - DAY_MS)})::int`.as(
        'failedAuthentications24h',
      ),
    ]);
  if (filter.status) query = query.where('p.status', '=', filter.status as Partner['status']);
  if (filter.id) query = query.where('p.id', '=', filter.id);
  return query.orderBy('p.name').execute();
}

export async function updatePartner(
  db: Kysely<DB>,
  id: string,
  changes: { status?: Partner['status']; quotaLimit?: number; quotaWindowSeconds?: number },
  at: Date,
): Promise<void> {
  await db
    .updateTable('partners')
    .set({
      ...(changes.status ? { status: changes.status } : {}),
      ...(changes.quotaLimit !== undefined ? { quota_limit: changes.quotaLimit } : {}),
      ...(changes.quotaWindowSeconds !== undefined ? { quota_window_seconds: changes.quotaWindowSeconds } : {}),
      updated_at: at,
    })
    .where('id', '=', id)
    .execute();
}
