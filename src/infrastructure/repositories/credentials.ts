import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface CredentialRecord {
  clientId: string;
  secretHash: string;
  environment: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  partnerId: string;
  partnerName: string;
  partnerStatus: string;
  quotaLimit: number;
  quotaWindowSeconds: number;
  channels: string[];
}

/** One round trip: the credential, its partner and the partner's channels. */
export async function findCredential(db: Kysely<DB>, clientId: string): Promise<CredentialRecord | undefined> {
  const row = await db
    .selectFrom('credentials as c')
    .innerJoin('partners as p', 'p.id', 'c.partner_id')
    .select([
      'c.client_id as clientId',
      'c.secret_hash as secretHash',
      'c.environment',
      'c.expires_at as expiresAt',
      'c.revoked_at as revokedAt',
      'c.last_used_at as lastUsedAt',
      'p.id as partnerId',
      'p.name as partnerName',
      'p.status as partnerStatus',
      'p.quota_limit as quotaLimit',
      'p.quota_window_seconds as quotaWindowSeconds',
      sql<string[]>`coalesce((select array_agg(pc.channel order by pc.channel) from partner_channels pc where pc.partner_id = p.id), '{}')`.as('channels'),
    ])
    .where('c.client_id', '=', clientId)
    .executeTakeFirst();
  return row;
}

export async function insertCredential(
  db: Kysely<DB>,
  values: { clientId: string; partnerId: string; environment: string; secretHash: string },
): Promise<void> {
  await db
    .insertInto('credentials')
    .values({ client_id: values.clientId, partner_id: values.partnerId, environment: values.environment, secret_hash: values.secretHash })
    .execute();
}

export async function touchCredential(db: Kysely<DB>, clientId: string, at: Date): Promise<void> {
  await db.updateTable('credentials').set({ last_used_at: at }).where('client_id', '=', clientId).execute();
}
