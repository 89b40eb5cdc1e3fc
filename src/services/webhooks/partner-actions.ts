import { ApiError } from '../../api-errors.js';
import { EVENT_TYPES, ALL_EVENTS } from '../../domain/webhooks.js';
import { listDeliveries } from '../../infrastructure/repositories/webhook-deliveries.js';
import { listOwnEndpoints, type Owner } from '../../infrastructure/repositories/webhook-endpoints.js';
import { searchEvents } from '../../infrastructure/repositories/webhook-events.js';
import { audit, AuditActions } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../operators/operator-errors.js';
import { parseInstant } from '../operators/time-range.js';
import { toDeliveryRecord, toEndpointRecord, type EndpointRecord } from './endpoint-record.js';
import { replaceSigningSecret, queueTestEvent } from './endpoint-actions.js';
import { checkUrl, insertNewEndpoint, requireEndpoint } from './endpoints.js';
import { disableWebhookEndpoint, enableWebhookEndpoint, replayWebhookEvent } from './operations.js';
import { toEventRecord, scheduleDelivery } from './record-event.js';
import type { WebhookSettings } from './settings.js';

/**
 * What a partner's own people do with its webhooks (the partner portal): the API's services for its endpoints
 * (the same checks of the URL, the same secrets and test events) and the operators' for disabling, enabling and
 * sending again, each scoped to the partner and its environment first, so another partner's endpoint, delivery or
 * event answers exactly like an unknown one, and each change audited with the person as actor.
 */
export interface PartnerScope extends OperatorContext {
  partnerId: string;
  environment: string;
}

/** Deliveries and events a page lists at most. */
export const PARTNER_LIST_LIMIT = 100;
/** Failed deliveries one "resend all failed" sends again at most (docs/decisions/0089-portal-webhooks-money-sandbox.md). */
const RESEND_FAILED_LIMIT = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const owner = (scope: PartnerScope): Owner => ({ partnerId: scope.partnerId, environment: scope.environment });

/** The API's refusals (ApiError) as the person-facing errors the portal's pages show. */
async function asOperatorErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const text = err.cause ?? err.message;
    if (err.kind === 'NOT_FOUND') throw new NotFoundError(text);
    if (err.kind === 'CONFLICT') throw new ConflictError(text);
    if (err.kind === 'VALIDATION') throw new InvalidInputError(text);
    throw err;
  }
}

export const listPartnerEndpoints = async (scope: PartnerScope): Promise<EndpointRecord[]> =>
  (await listOwnEndpoints(scope.db, owner(scope))).map(toEndpointRecord);

/** One of the partner's endpoints; NotFoundError for any other id, well-formed or not. */
export async function partnerEndpoint(scope: PartnerScope, id: string): Promise<EndpointRecord> {
  if (!UUID.test(id)) throw new NotFoundError(`No webhook endpoint with id ${id}`);
  return asOperatorErrors(async () => toEndpointRecord(await requireEndpoint(scope.db, owner(scope), id)));
}

/** Checks the form's events: each a known type (not `webhook.test`, sent only on request) or `*`. */
function subscribable(events: readonly string[]): string[] {
  const known = [ALL_EVENTS, ...EVENT_TYPES.filter((t) => t !== 'webhook.test')] as string[];
  const chosen = [...new Set(events.map((e) => e.trim()).filter(Boolean))];
  if (chosen.length === 0) throw new InvalidInputError('events: choose at least one event type, or * for all.');
  const unknown = chosen.filter((e) => !known.includes(e));
  if (unknown.length > 0) throw new InvalidInputError(`events: ${unknown.join(', ')} is not an event type.`);
  return chosen;
}

/** Adds an endpoint as POST /webhook-endpoints does (the same URL checks); its secret is answered once. */
export async function addPartnerEndpoint(
  scope: PartnerScope,
  settings: WebhookSettings,
  input: { url: string; events: readonly string[] },
) {
  const url = input.url.trim();
  if (url === '' || url.length > 2000) throw new InvalidInputError('url: give the address (at most 2000 characters).');
  const events = subscribable(input.events);
  await asOperatorErrors(() => checkUrl(url, settings));
  return inTransaction(scope, async (tx) => {
    const row = await insertNewEndpoint(tx.db, settings, owner(scope), { url, events });
    // Without the query string or credentials a receiver's URL may carry: audit details never hold a secret.
    const parsed = new URL(url);
    const where = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
    await audit(tx, AuditActions.webhookAdd, row.id, { partnerId: scope.partnerId, url: where, events });
    return { ...toEndpointRecord(row), secret: settings.secretBox.open(row.secret_encrypted, row.id) };
  });
}

/** A new signing secret, as POST /webhook-endpoints/{id}/rotate-secret; answered once. */
export async function rotatePartnerSecret(scope: PartnerScope, settings: WebhookSettings, id: string) {
  await partnerEndpoint(scope, id);
  return inTransaction(scope, async (tx) => {
    const row = await asOperatorErrors(() => replaceSigningSecret(tx.db, settings, owner(scope), id));
    await audit(tx, AuditActions.webhookRotateSecret, id, { partnerId: scope.partnerId });
    return { ...toEndpointRecord(row), secret: settings.secretBox.open(row.secret_encrypted, row.id) };
  });
}

/** A `webhook.test` event to one endpoint, as POST /webhook-endpoints/{id}/test. */
export async function sendPartnerTestEvent(scope: PartnerScope, id: string) {
  await partnerEndpoint(scope, id);
  return inTransaction(scope, async (tx) => {
    const queued = await asOperatorErrors(() => queueTestEvent(tx.db, owner(scope), id));
    await audit(tx, AuditActions.webhookTest, id, { partnerId: scope.partnerId, eventId: queued.eventId });
    return queued;
  });
}

/** Stops deliveries to the partner's endpoint (the operators' service), with the person named as the reason. */
export async function disablePartnerEndpoint(scope: PartnerScope, id: string) {
  await partnerEndpoint(scope, id);
  return disableWebhookEndpoint(
    scope,
    id,
    `disabled in the partner portal by ${scope.operator.replace(/^portal:/, '')}`,
  );
}

export async function enablePartnerEndpoint(scope: PartnerScope, id: string) {
  await partnerEndpoint(scope, id);
  return enableWebhookEndpoint(scope, id);
}

/** The endpoint's deliveries, newest first, each with its attempts and the endpoint's answers. */
export async function partnerDeliveries(scope: PartnerScope, id: string) {
  await partnerEndpoint(scope, id);
  return (await listDeliveries(scope.db, { endpointId: id, limit: PARTNER_LIST_LIMIT })).map(toDeliveryRecord);
}

/** Sends a delivery's event again to its endpoint, as a new delivery (a replay of it, same `webhook-id`). */
export async function resendPartnerDelivery(scope: PartnerScope, endpointId: string, deliveryId: string) {
  await partnerEndpoint(scope, endpointId);
  const delivery = UUID.test(deliveryId)
    ? (await listDeliveries(scope.db, { endpointId, limit: PARTNER_LIST_LIMIT * 10 })).find((d) => d.id === deliveryId)
    : undefined;
  if (!delivery) throw new NotFoundError(`No delivery with id ${deliveryId}`);
  const replayed = await replayWebhookEvent(scope, delivery.event_id, { endpoint: endpointId });
  return { eventId: replayed.eventId, deliveryId: replayed.deliveries[0]!.deliveryId };
}

/**
 * Sends again every event with a delivery to the endpoint that failed since `since`, unless another delivery of it
 * to the endpoint is pending or delivered (so pressing twice sends nothing twice), at most RESEND_FAILED_LIMIT; one
 * audit entry.
 */
export async function resendPartnerFailed(scope: PartnerScope, endpointId: string, sinceText: string) {
  const endpoint = await partnerEndpoint(scope, endpointId);
  const since = parseInstant(sinceText.trim(), 'since', 'start');
  if (since > scope.now()) throw new InvalidInputError('since: give a time in the past.');
  if (endpoint.status !== 'enabled')
    throw new ConflictError(`Webhook endpoint ${endpointId} is disabled; enable it first.`);
  const failedSince = await listDeliveries(scope.db, {
    endpointId,
    since,
    status: 'failed',
    limit: RESEND_FAILED_LIMIT * 4,
  });
  const events = [...new Set(failedSince.map((d) => d.event_id))];
  // An event sent again since (pending or delivered) is settled, whichever of its deliveries came last.
  const settled = new Set<string>();
  for (const eventId of events)
    if ((await listDeliveries(scope.db, { endpointId, eventId, limit: 50 })).some((d) => d.status !== 'failed'))
      settled.add(eventId);
  const failed = events
    .filter((e) => !settled.has(e))
    .slice(0, RESEND_FAILED_LIMIT)
    .map((eventId) => failedSince.find((d) => d.event_id === eventId)!);
  if (failed.length === 0) return { resent: 0 };
  return inTransaction(scope, async (tx) => {
    for (const d of failed)
      await scheduleDelivery(tx.db, { eventId: d.event_id, endpointId, replayOf: d.id, at: tx.now() });
    await audit(tx, AuditActions.webhookReplay, endpointId, {
      since: since.toISOString(),
      events: failed.map((d) => d.event_id),
    });
    return { resent: failed.length };
  });
}

/** The partner's event log, newest first: by type, and from/to (a day or a timestamp; `to` includes its day). */
export async function partnerEventLog(scope: PartnerScope, filter: { type?: string; from?: string; to?: string }) {
  if (filter.type !== undefined && !(EVENT_TYPES as readonly string[]).includes(filter.type))
    throw new InvalidInputError(`type: ${filter.type} is not an event type.`);
  const from = filter.from === undefined ? undefined : parseInstant(filter.from, 'from', 'start');
  const before = filter.to === undefined ? undefined : parseInstant(filter.to, 'to', 'end');
  if (from && before && from >= before) throw new InvalidInputError('from must be before to.');
  const rows = await searchEvents(scope.db, owner(scope), {
    type: filter.type,
    from,
    before,
    limit: PARTNER_LIST_LIMIT,
  });
  return rows.map(toEventRecord);
}
