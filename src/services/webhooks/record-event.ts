import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { randomBase32 } from '../../domain/reference-ids.js';
import type { EventType } from '../../domain/webhooks.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { enqueueJob, webhookDeliveryJob } from '../jobs/definitions.js';
import { insertDelivery } from '../../infrastructure/repositories/webhook-deliveries.js';
import type { Owner } from '../../infrastructure/repositories/webhook-endpoints.js';
import { insertEventInSequence, type EventRow } from '../../infrastructure/repositories/webhook-events.js';

/**
 * Records an event in the transaction of the state change that causes it (the outbox): the event, its sequence
 * number, a delivery to each enabled endpoint of the partner subscribed to its type and each delivery's job all
 * commit with the change or not at all, so no event is lost and none is sent for a change that rolled back.
 * `webhook.test` goes only where the partner asks (see sendTestEvent), so it is not fanned out here.
 */
export async function recordEvent(
  trx: Kysely<DB>,
  owner: Owner,
  type: EventType,
  data: unknown,
  at: Date = new Date(),
): Promise<EventRow> {
  const { event, endpointIds } = await insertEventInSequence(
    trx,
    { id: `evt_${randomBase32(26)}`, owner, type, data, createdAt: at },
    { fanOut: type !== 'webhook.test' },
  );
  for (const endpointId of endpointIds) await scheduleDelivery(trx, { eventId: event.id, endpointId, at });
  return event;
}

/** A new delivery of an event to an endpoint, with the job of its first attempt. */
export async function scheduleDelivery(
  trx: Kysely<DB>,
  delivery: { eventId: string; endpointId: string; replayOf?: string; at: Date },
): Promise<string> {
  const id = randomUUID();
  await insertDelivery(trx, { id, ...delivery });
  await enqueueJob(trx, webhookDeliveryJob, { deliveryId: id });
  return id;
}

/** The event as partners see it, in GET /events and as the body of a webhook. */
export function toEventRecord(event: EventRow) {
  return {
    id: event.id,
    type: event.type,
    timestamp: new Date(event.created_at).toISOString(),
    sequence: Number(event.sequence),
    data: event.data,
  };
}
