import type { EndpointRequest } from '../../contract/webhooks.js';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Principal } from '../../domain/principal.js';
import { requestHash } from '../../domain/request-hash.js';
import { ApiError } from '../../api-errors.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { failPendingDeliveries } from '../../infrastructure/repositories/webhook-deliveries.js';
import {
  deleteEndpoint,
  findOwnEndpoint,
  insertEndpoint,
  listOwnEndpoints,
  type EndpointRow,
  type Owner,
} from '../../infrastructure/repositories/webhook-endpoints.js';
import { refusedDestination, refusedUrl } from '../../infrastructure/webhooks/address-guard.js';
import { newSigningSecret } from '../../infrastructure/webhooks/signer.js';
import { idempotent, idempotencyScope } from '../idempotency.js';
import type { RequestContext } from '../record-donation.js';
import { toEndpointRecord, type EndpointRecord } from './endpoint-record.js';
import type { WebhookSettings } from './settings.js';

const owner = (principal: Owner) => ({ partnerId: principal.partnerId, environment: principal.environment });

/**
 * Registers a partner's receiver. The URL is checked now (scheme, and every address its host resolves to) and
 * again at each delivery. The signing secret is returned here once; it is stored encrypted. A replay of the same
 * Idempotency-Key answers the same endpoint with its current secret (the stored response never holds it).
 */
export async function createEndpoint(
  db: Kysely<DB>,
  settings: WebhookSettings,
  request: EndpointRequest,
  context: RequestContext,
) {
  await checkUrl(request.url, settings);
  const { principal } = context;
  const result = await idempotent(
    db,
    idempotencyScope(context, 'POST /webhook-endpoints', requestHash(request)),
    async (trx) => ({
      status: 201,
      items: toEndpointRecord(await insertNewEndpoint(trx, settings, principal, request)),
    }),
  );
  return { ...result, items: await withSecret(db, settings, principal, result.items) };
}

/**
 * Inserts a new endpoint of `owner` with a new signing secret (sealed); the URL is checked by the caller
 * (`checkUrl`). The API's POST /webhook-endpoints and the portal's Webhooks page both add endpoints with it.
 */
export async function insertNewEndpoint(
  trx: Kysely<DB>,
  settings: WebhookSettings,
  owner: Owner,
  request: { url: string; events: readonly string[] },
): Promise<EndpointRow> {
  const id = randomUUID();
  return insertEndpoint(trx, {
    id,
    partner_id: owner.partnerId,
    environment: owner.environment,
    url: request.url,
    events: [...new Set(request.events)],
    secret_encrypted: settings.secretBox.seal(newSigningSecret(), id),
    previous_secret_encrypted: null,
    previous_secret_expires_at: null,
    disabled_reason: null,
    disabled_at: null,
    failing_since: null,
    deleted_at: null,
  });
}

/** Adds the endpoint's current signing secret to a response about it (creation, rotation). */
export async function withSecret<T extends { id: string }>(
  db: Kysely<DB>,
  settings: WebhookSettings,
  principal: Owner,
  items: T,
): Promise<T & { secret: string }> {
  const row = await requireEndpoint(db, principal, items.id);
  return { ...items, secret: settings.secretBox.open(row.secret_encrypted, row.id) };
}

/** 400 naming `url` when the service may not send there. */
export async function checkUrl(url: string, settings: WebhookSettings): Promise<void> {
  const checked = refusedUrl(url, settings.policy);
  if ('reason' in checked) throw new ApiError('VALIDATION', `url: ${checked.reason}`);
  const refused = await refusedDestination(checked.url, settings.policy);
  if (refused) throw new ApiError('VALIDATION', `url: ${refused}`);
}

export async function listEndpoints(db: Kysely<DB>, principal: Principal): Promise<EndpointRecord[]> {
  return (await listOwnEndpoints(db, owner(principal))).map(toEndpointRecord);
}

export async function getEndpoint(db: Kysely<DB>, principal: Principal, id: string): Promise<EndpointRecord> {
  return toEndpointRecord(await requireEndpoint(db, principal, id));
}

/** Another partner's endpoint answers exactly like an unknown one. */
export async function requireEndpoint(db: Kysely<DB>, principal: Owner, id: string): Promise<EndpointRow> {
  const row = await findOwnEndpoint(db, owner(principal), id);
  if (!row) throw new ApiError('NOT_FOUND', `No webhook endpoint with id ${id}`);
  return row;
}

/** Deletes an endpoint: nothing more is sent to it, deliveries still pending stop. */
export async function removeEndpoint(db: Kysely<DB>, principal: Principal, id: string) {
  await requireEndpoint(db, principal, id);
  const at = new Date();
  await db.transaction().execute(async (trx) => {
    await deleteEndpoint(trx, id, at);
    await failPendingDeliveries(trx, id, 'endpoint deleted', at);
  });
  return { id, deleted: true as const };
}
