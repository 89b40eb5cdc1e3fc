import { failPendingDeliveries, listDeliveries } from '../../infrastructure/repositories/webhook-deliveries.js';
import {
  findEndpoint,
  listAllEndpoints,
  setEndpointStatus,
  type EndpointRow,
} from '../../infrastructure/repositories/webhook-endpoints.js';
import { findEvent } from '../../infrastructure/repositories/webhook-events.js';
import { audit, AuditActions } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../operators/operator-errors.js';
import { requirePartner } from '../operators/partners.js';
import { toDeliveryRecord, toEndpointRecord } from './endpoint-record.js';
import { pruneEvents } from './event-log.js';
import { scheduleDelivery } from './record-event.js';

/** Operators' view of every partner's webhook endpoints: list, disable and enable, deliveries, replays. */

export async function listWebhookEndpoints(
  ctx: OperatorContext,
  filter: { partner?: string; status?: string; deleted?: boolean },
) {
  if (filter.status !== undefined && !['enabled', 'disabled'].includes(filter.status))
    throw new InvalidInputError('--status must be enabled or disabled.');
  const partnerId = filter.partner ? (await requirePartner(ctx, filter.partner)).id : undefined;
  const rows = await listAllEndpoints(ctx.db, { partnerId, status: filter.status, includeDeleted: filter.deleted });
  return rows.map((row) => ({
    ...toEndpointRecord(row),
    partnerId: row.partner_id,
    partnerName: row.partner_name,
    environment: row.environment,
    deletedAt: row.deleted_at ? new Date(row.deleted_at).toISOString() : null,
  }));
}

async function requireEndpoint(ctx: OperatorContext, id: string): Promise<EndpointRow> {
  const row = /^[0-9a-f-]{36}$/i.test(id) ? await findEndpoint(ctx.db, id) : undefined;
  if (!row) throw new NotFoundError(`No webhook endpoint with id ${JSON.stringify(id)} (see "webhooks list").`);
  if (row.deleted_at) throw new ConflictError(`Webhook endpoint ${id} was deleted by its partner.`);
  return row;
}

/** Stops deliveries to an endpoint; the partner sees the reason in GET /webhook-endpoints. */
export async function disableWebhookEndpoint(ctx: OperatorContext, id: string, reason: string) {
  if (reason.trim() === '') throw new InvalidInputError('--reason must say why (the partner sees it).');
  await requireEndpoint(ctx, id);
  return inTransaction(ctx, async (tx) => {
    await setEndpointStatus(tx.db, id, { status: 'disabled', reason: reason.trim() }, tx.now());
    await failPendingDeliveries(tx.db, id, 'endpoint disabled by an operator', tx.now());
    await audit(tx, AuditActions.webhookDisable, id, { reason: reason.trim() });
    return toEndpointRecord((await findEndpoint(tx.db, id))!);
  });
}

/** Resumes deliveries of new events. Missed ones are in the partner's event log, or can be replayed. */
export async function enableWebhookEndpoint(ctx: OperatorContext, id: string) {
  await requireEndpoint(ctx, id);
  return inTransaction(ctx, async (tx) => {
    await setEndpointStatus(tx.db, id, { status: 'enabled', reason: null }, tx.now());
    await audit(tx, AuditActions.webhookEnable, id);
    return toEndpointRecord((await findEndpoint(tx.db, id))!);
  });
}

export async function listWebhookDeliveries(
  ctx: OperatorContext,
  filter: { endpoint?: string; event?: string; limit: number },
) {
  if (!filter.endpoint && !filter.event) throw new InvalidInputError('Name an endpoint, or an event with --event.');
  if (filter.endpoint) await requireEndpoint(ctx, filter.endpoint);
  const rows = await listDeliveries(ctx.db, {
    endpointId: filter.endpoint,
    eventId: filter.event,
    limit: filter.limit,
  });
  return rows.map(toDeliveryRecord);
}

/**
 * Sends an event again, as a new delivery with the same `webhook-id`: to one endpoint, or to every enabled
 * endpoint of the partner subscribed to its type.
 */
export async function replayWebhookEvent(ctx: OperatorContext, eventId: string, options: { endpoint?: string }) {
  const event = await findEvent(ctx.db, eventId);
  if (!event) throw new NotFoundError(`No event with id ${JSON.stringify(eventId)} (events are kept a limited time).`);
  const candidates = options.endpoint
    ? [await requireEndpoint(ctx, options.endpoint)]
    : (await listAllEndpoints(ctx.db, { partnerId: event.partner_id, status: 'enabled' })).filter(
        (e) => e.environment === event.environment && (e.events.includes('*') || e.events.includes(event.type)),
      );
  for (const endpoint of candidates) {
    if (endpoint.partner_id !== event.partner_id || endpoint.environment !== event.environment)
      throw new InvalidInputError(`Endpoint ${endpoint.id} belongs to another partner or environment than the event.`);
    if (endpoint.status !== 'enabled')
      throw new ConflictError(`Endpoint ${endpoint.id} is disabled; enable it first ("webhooks enable").`);
  }
  if (candidates.length === 0) throw new ConflictError('The partner has no enabled endpoint subscribed to this event.');
  const earlier = await listDeliveries(ctx.db, { eventId, limit: 1000 });
  return inTransaction(ctx, async (tx) => {
    const deliveries = [];
    for (const endpoint of candidates) {
      const replayOf = earlier.find((d) => d.endpoint_id === endpoint.id)?.id;
      const at = tx.now();
      const deliveryId = await scheduleDelivery(tx.db, { eventId, endpointId: endpoint.id, replayOf, at });
      deliveries.push({ endpointId: endpoint.id, deliveryId });
    }
    await audit(tx, AuditActions.webhookReplay, eventId, { endpoints: candidates.map((e) => e.id) });
    return { eventId, deliveries };
  });
}

export async function pruneWebhookEvents(ctx: OperatorContext, retentionDays: number) {
  return { pruned: await pruneEvents(ctx.db, retentionDays, ctx.now()) };
}
