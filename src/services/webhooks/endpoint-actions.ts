import type { Kysely } from 'kysely';
import type { Principal } from '../../domain/principal.js';
import { requestHash } from '../../domain/request-hash.js';
import { ApiError } from '../../api-errors.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { listDeliveries } from '../../infrastructure/repositories/webhook-deliveries.js';
import { replaceSecret, type Owner } from '../../infrastructure/repositories/webhook-endpoints.js';
import { newSigningSecret } from '../../infrastructure/webhooks/signer.js';
import { idempotent, idempotencyScope } from '../idempotency.js';
import type { RequestContext } from '../record-donation.js';
import { toDeliveryRecord, toEndpointRecord } from './endpoint-record.js';
import { requireEndpoint, withSecret } from './endpoints.js';
import { recordEvent, scheduleDelivery } from './record-event.js';
import type { WebhookSettings } from './settings.js';

/**
 * A new signing secret, returned once. The previous one keeps signing every message beside it (two signatures in
 * `webhook-signature`) for WEBHOOK_ROTATION_OVERLAP_SECONDS, so the partner can deploy the new secret without
 * missing a delivery.
 */
export async function rotateSecret(db: Kysely<DB>, settings: WebhookSettings, context: RequestContext, id: string) {
  const { principal } = context;
  const result = await idempotent(
    db,
    idempotencyScope(context, 'POST /webhook-endpoints/{id}/rotate-secret', requestHash({ id })),
    async (trx) => ({ status: 200, items: toEndpointRecord(await replaceSigningSecret(trx, settings, principal, id)) }),
  );
  return { ...result, items: await withSecret(db, settings, principal, result.items) };
}

/** The endpoint of `owner` with a new current secret; its previous one kept for the overlap (re-sealed). */
export async function replaceSigningSecret(trx: Kysely<DB>, settings: WebhookSettings, owner: Owner, id: string) {
  const row = await requireEndpoint(trx, owner, id);
  const at = new Date();
  const previousExpiresAt = new Date(at.getTime() + settings.rotationOverlapSeconds * 1000);
  return replaceSecret(
    trx,
    id,
    {
      current: settings.secretBox.seal(newSigningSecret(), id),
      // Re-sealed, not copied: the sealed form is bound to the endpoint, and a fresh IV costs nothing.
      previous: settings.secretBox.seal(settings.secretBox.open(row.secret_encrypted, id), id),
      previousExpiresAt,
    },
    at,
  );
}

/** Sends a `webhook.test` event to one endpoint (and records it in the event log, like any event). */
export async function sendTestEvent(db: Kysely<DB>, context: RequestContext, id: string) {
  const { principal } = context;
  return idempotent(
    db,
    idempotencyScope(context, 'POST /webhook-endpoints/{id}/test', requestHash({ id })),
    async (trx) => ({ status: 202, items: await queueTestEvent(trx, principal, id) }),
  );
}

/** Records a `webhook.test` event of `owner` and queues its delivery to the (enabled) endpoint `id`. */
export async function queueTestEvent(trx: Kysely<DB>, owner: Owner, id: string) {
  const endpoint = await requireEndpoint(trx, owner, id);
  if (endpoint.status !== 'enabled')
    throw new ApiError(
      'CONFLICT',
      `Webhook endpoint ${id} is disabled: ${endpoint.disabled_reason ?? 'by an operator'}`,
    );
  const at = new Date();
  const event = await recordEvent(
    trx,
    { partnerId: owner.partnerId, environment: owner.environment },
    'webhook.test',
    { endpointId: id, message: 'A test event sent on request. It needs no action.' },
    at,
  );
  const deliveryId = await scheduleDelivery(trx, { eventId: event.id, endpointId: id, at });
  return { eventId: event.id, deliveryId };
}

/** The endpoint's deliveries, newest first, each with every attempt. */
export async function endpointDeliveries(db: Kysely<DB>, principal: Principal, id: string, limit: number) {
  await requireEndpoint(db, principal, id);
  return (await listDeliveries(db, { endpointId: id, limit })).map(toDeliveryRecord);
}
