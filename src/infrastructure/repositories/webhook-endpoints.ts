import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema.js';
import type { WebhookEndpointsTable } from '../db/webhook-tables.js';

/** Partners' webhook endpoints. A deleted endpoint is kept (its deliveries refer to it) but never shown again. */

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export interface Owner {
  partnerId: string;
  environment: string;
}

export async function insertEndpoint(db: Kysely<DB>, row: Insertable<WebhookEndpointsTable>): Promise<EndpointRow> {
  return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

function owned(db: Kysely<DB>, owner: Owner) {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('partner_id', '=', owner.partnerId)
    .where('environment', '=', owner.environment)
    .where('deleted_at', 'is', null);
}

export const listOwnEndpoints = (db: Kysely<DB>, owner: Owner): Promise<EndpointRow[]> =>
  owned(db, owner).orderBy('created_at').execute();

export const findOwnEndpoint = (db: Kysely<DB>, owner: Owner, id: string): Promise<EndpointRow | undefined> =>
  owned(db, owner).where('id', '=', id).executeTakeFirst();

/** Any endpoint, deleted or not (operators, the delivery worker). */
export const findEndpoint = (db: Kysely<DB>, id: string): Promise<EndpointRow | undefined> =>
  db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();

export async function deleteEndpoint(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute();
}

/** The new secret signs from now; the previous one keeps signing until `previousExpiresAt`. */
export async function replaceSecret(
  db: Kysely<DB>,
  id: string,
  secrets: { current: string; previous: string; previousExpiresAt: Date },
  at: Date,
): Promise<EndpointRow> {
  return db
    .updateTable('webhook_endpoints')
    .set({
      secret_encrypted: secrets.current,
      previous_secret_encrypted: secrets.previous,
      previous_secret_expires_at: secrets.previousExpiresAt,
      updated_at: at,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setEndpointStatus(
  db: Kysely<DB>,
  id: string,
  change: { status: 'enabled' | 'disabled'; reason: string | null },
  at: Date,
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({
      status: change.status,
      disabled_reason: change.reason,
      disabled_at: change.status === 'disabled' ? at : null,
      // Re-enabled endpoints start with a clean record: only failures from now on count towards disabling.
      failing_since: null,
      updated_at: at,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Notes the result of an attempt on its endpoint: a success clears the failure streak; a failure starts it (if
 * not started) and disables the endpoint once the streak is older than `disableAfterSeconds`. Returns whether this
 * failure disabled it.
 */
export async function noteAttemptOnEndpoint(
  trx: Kysely<DB>,
  id: string,
  outcome: { ok: boolean; at: Date; disableAfterSeconds: number; reason: string },
): Promise<boolean> {
  if (outcome.ok) {
    await trx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', id).execute();
    return false;
  }
  const row = await trx
    .updateTable('webhook_endpoints')
    .set({ failing_since: sql`coalesce(failing_since, ${outcome.at})` })
    .where('id', '=', id)
    .returning(['failing_since', 'status'])
    .executeTakeFirstOrThrow();
  const since = new Date(row.failing_since!);
  if (row.status !== 'enabled' || outcome.at.getTime() - since.getTime() < outcome.disableAfterSeconds * 1000)
    return false;
  await trx
    .updateTable('webhook_endpoints')
    .set({
      status: 'disabled',
      disabled_at: outcome.at,
      disabled_reason: `Every delivery failed since ${since.toISOString()} (last: ${outcome.reason}); disabled automatically.`,
      updated_at: outcome.at,
    })
    .where('id', '=', id)
    .execute();
  return true;
}

export interface EndpointWithPartner extends EndpointRow {
  partner_name: string;
}

/** Every partner's endpoints, for operators. */
export async function listAllEndpoints(
  db: Kysely<DB>,
  filter: { partnerId?: string; status?: string; includeDeleted?: boolean },
): Promise<EndpointWithPartner[]> {
  let query = db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('partners as p', 'p.id', 'e.partner_id')
    .selectAll('e')
    .select('p.name as partner_name');
  if (filter.partnerId) query = query.where('e.partner_id', '=', filter.partnerId);
  if (filter.status) query = query.where('e.status', '=', filter.status as 'enabled' | 'disabled');
  if (!filter.includeDeleted) query = query.where('e.deleted_at', 'is', null);
  return query.orderBy('p.name').orderBy('e.created_at').execute();
}
