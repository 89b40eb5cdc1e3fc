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
      sql<
        string[]
      >`coalesce((select array_agg(pc.channel order by pc.channel) from partner_channels pc where pc.partner_id = p.id), '{}')`.as(
        'channels',
      ),
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
    .values({
      client_id: values.clientId,
      partner_id: values.partnerId,
      environment: values.environment,
      secret_hash: values.secretHash,
    })
    .execute();
}

export async function touchCredential(db: Kysely<DB>, clientId: string, at: Date): Promise<void> {
  await db.updateTable('credentials').set({ last_used_at: at }).where('client_id', '=', clientId).execute();
}

/** A credential as operators see it: never its secret or hash. */
export interface CredentialListing {
  clientId: string;
  partnerId: string;
  partnerName: string;
  partnerStatus: string;
  environment: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  replacedBy: string | null;
  lastUsedAt: Date | null;
}

export interface CredentialFilter {
  partnerId?: string;
  environment?: string;
  clientId?: string;
}

export async function listCredentialListings(
  db: Kysely<DB>,
  filter: CredentialFilter = {},
): Promise<CredentialListing[]> {
  let query = db
    .selectFrom('credentials as c')
    .innerJoin('partners as p', 'p.id', 'c.partner_id')
    .select([
      'c.client_id as clientId',
      'p.id as partnerId',
      'p.name as partnerName',
      'p.status as partnerStatus',
      'c.environment',
      'c.created_at as createdAt',
      'c.expires_at as expiresAt',
      'c.revoked_at as revokedAt',
      'c.replaced_by as replacedBy',
      'c.last_used_at as lastUsedAt',
    ]);
  if (filter.partnerId) query = query.where('c.partner_id', '=', filter.partnerId);
  if (filter.environment) query = query.where('c.environment', '=', filter.environment);
  if (filter.clientId) query = query.where('c.client_id', '=', filter.clientId);
  return query.orderBy('p.name').orderBy('c.environment').orderBy('c.created_at').execute();
}

/**
 * Ends a credential: at `expiresAt` (a rotation's overlap) or at `revokedAt` (at once), and records its
 * replacement. Only a credential still in use (not revoked, not already ending) is changed unless
 * `allowEnding` is set (a revocation may cut an overlap short). Returns false when the row did not qualify, so
 * that two operators acting at once cannot both rotate the same credential.
 */
export async function endCredential(
  db: Kysely<DB>,
  clientId: string,
  end: { expiresAt?: Date; revokedAt?: Date; replacedBy?: string },
  now: Date,
  options: { allowEnding?: boolean } = {},
): Promise<boolean> {
  const result = await db
    .updateTable('credentials')
    .set({
      ...(end.expiresAt ? { expires_at: end.expiresAt } : {}),
      ...(end.revokedAt ? { revoked_at: end.revokedAt } : {}),
      ...(end.replacedBy ? { replaced_by: end.replacedBy } : {}),
    })
    .where('client_id', '=', clientId)
    .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', now)]))
    .where((eb) =>
      options.allowEnding ? eb('expires_at', 'is', null).or('expires_at', '>', now) : eb('expires_at', 'is', null),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
