import { type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from '../db/webhook-tables.js';

/** Deliveries of events to endpoints, and every attempt of each. */

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

export async function insertDelivery(
  trx: Kysely<DB>,
  delivery: { id: string; eventId: string; endpointId: string; replayOf?: string; at: Date },
): Promise<void> {
  await trx
    .insertInto('webhook_deliveries')
    .values({
      id: delivery.id,
      event_id: delivery.eventId,
      endpoint_id: delivery.endpointId,
      replay_of: delivery.replayOf ?? null,
      next_attempt_at: delivery.at,
      failure_reason: null,
      finished_at: null,
      created_at: delivery.at,
    })
    .execute();
}

/** A delivery with what an attempt needs, row-locked so that two runs of one job cannot both attempt it. */
export async function lockDeliveryForAttempt(trx: Kysely<DB>, id: string) {
  return trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .innerJoin('webhook_endpoints as en', 'en.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.status',
      'd.attempts',
      'ev.id as event_id',
      'ev.type',
      'ev.sequence',
      'ev.data',
      'ev.created_at as event_created_at',
      'en.id as endpoint_id',
      'en.url',
      'en.status as endpoint_status',
      'en.deleted_at',
      'en.secret_encrypted',
      'en.previous_secret_encrypted',
      'en.previous_secret_expires_at',
    ])
    .where('d.id', '=', id)
    .forUpdate('d')
    .executeTakeFirst();
}
export type DeliveryToAttempt = NonNullable<Awaited<ReturnType<typeof lockDeliveryForAttempt>>>;

export async function insertAttempt(trx: Kysely<DB>, attempt: Omit<AttemptRow, 'id'>): Promise<void> {
  await trx.insertInto('webhook_attempts').values(attempt).execute();
}

export async function updateDelivery(
  trx: Kysely<DB>,
  id: string,
  change: Partial<Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'failure_reason' | 'finished_at'>>,
): Promise<void> {
  await trx.updateTable('webhook_deliveries').set(change).where('id', '=', id).execute();
}

/** Stops the pending deliveries of an endpoint (disabled or deleted): they will not be attempted again. */
export async function failPendingDeliveries(trx: Kysely<DB>, endpointId: string, reason: string, at: Date) {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', failure_reason: reason, finished_at: at, next_attempt_at: null })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

export interface DeliveryWithAttempts extends DeliveryRow {
  event_type: string;
  attempt_rows: AttemptRow[];
}

/** An endpoint's deliveries, newest first, each with its attempts in order; `since` and `status` narrow them. */
export async function listDeliveries(
  db: Kysely<DB>,
  filter: { endpointId?: string; eventId?: string; status?: DeliveryRow['status']; since?: Date; limit: number },
): Promise<DeliveryWithAttempts[]> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .selectAll('d')
    .select('ev.type as event_type');
  if (filter.endpointId) query = query.where('d.endpoint_id', '=', filter.endpointId);
  if (filter.eventId) query = query.where('d.event_id', '=', filter.eventId);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  if (filter.since) query = query.where('d.created_at', '>=', filter.since);
  const deliveries = await query.orderBy('d.created_at', 'desc').orderBy('d.id').limit(filter.limit).execute();
  if (deliveries.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      deliveries.map((d) => d.id),
    )
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
  return deliveries.map((d) => ({ ...d, attempt_rows: attempts.filter((a) => a.delivery_id === d.id) }));
}
