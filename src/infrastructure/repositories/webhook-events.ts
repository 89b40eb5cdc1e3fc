import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema.js';
import type { WebhookEventsTable } from '../db/webhook-tables.js';
import type { Owner } from './webhook-endpoints.js';

/** The outbox and partners' event log. */

export type EventRow = Selectable<WebhookEventsTable>;

/**
 * Inserts the event with the partner's next sequence number, in one statement that also reads which of the
 * partner's enabled endpoints subscribe to its type (none when `fanOut` is false). The counter's row stays locked
 * until the transaction ends, so a partner's events get their numbers in commit order and without gaps (a
 * rolled-back transaction gives its number back). Call it as late in the transaction as possible: every other event
 * of the partner waits on that row until this transaction commits.
 */
export async function insertEventInSequence(
  trx: Kysely<DB>,
  event: { id: string; owner: Owner; type: string; data: unknown; createdAt: Date },
  { fanOut }: { fanOut: boolean },
): Promise<{ event: EventRow; endpointIds: string[] }> {
  const { partnerId, environment } = event.owner;
  const { rows } = await sql<EventRow & { endpoint_ids: string[] }>`
    with next as (
      insert into webhook_event_sequences as s (partner_id, environment, last_sequence)
      values (${partnerId}::uuid, ${environment}::text, 1)
      on conflict (partner_id, environment) do update set last_sequence = s.last_sequence + 1
      returning last_sequence
    ),
    inserted as (
      insert into webhook_events (id, partner_id, environment, sequence, type, data, created_at)
      select ${event.id}::text, ${partnerId}::uuid, ${environment}::text, next.last_sequence, ${event.type}::text,
             ${JSON.stringify(event.data)}::jsonb, ${event.createdAt}::timestamptz
      from next
      returning id, partner_id, environment, sequence, type, data, created_at
    )
    select inserted.id, inserted.partner_id, inserted.environment, inserted.sequence, inserted.type, inserted.data,
      inserted.created_at, array(
      select e.id::text from webhook_endpoints e
      where ${fanOut} and e.partner_id = ${partnerId}::uuid and e.environment = ${environment}::text
        and e.deleted_at is null and e.status = 'enabled' and e.events && array[${event.type}::text, '*']
      order by e.created_at, e.id
    ) as endpoint_ids
    from inserted`.execute(trx);
  const { endpoint_ids: endpointIds, ...row } = rows[0]!;
  return { event: row, endpointIds };
}

export async function findEvent(db: Kysely<DB>, id: string, owner?: Owner): Promise<EventRow | undefined> {
  let query = db.selectFrom('webhook_events').selectAll().where('id', '=', id);
  if (owner) query = query.where('partner_id', '=', owner.partnerId).where('environment', '=', owner.environment);
  return query.executeTakeFirst();
}

/** The partner's events after sequence `after` (0: from the oldest kept), oldest first. */
export async function listEvents(db: Kysely<DB>, owner: Owner, after: number, limit: number): Promise<EventRow[]> {
  return db
    .selectFrom('webhook_events')
    .selectAll()
    .where('partner_id', '=', owner.partnerId)
    .where('environment', '=', owner.environment)
    .where('sequence', '>', after)
    .orderBy('sequence')
    .limit(limit)
    .execute();
}

/** The partner's events of a type and a time span, newest first (the portal's event log). */
export async function searchEvents(
  db: Kysely<DB>,
  owner: Owner,
  filter: { type?: string; from?: Date; before?: Date; limit: number },
): Promise<EventRow[]> {
  let query = db
    .selectFrom('webhook_events')
    .selectAll()
    .where('partner_id', '=', owner.partnerId)
    .where('environment', '=', owner.environment);
  if (filter.type) query = query.where('type', '=', filter.type);
  if (filter.from) query = query.where('created_at', '>=', filter.from);
  if (filter.before) query = query.where('created_at', '<', filter.before);
  return query.orderBy('sequence', 'desc').limit(filter.limit).execute();
}

/** Deletes events created before `before`, with their deliveries and attempts; returns how many. */
export async function deleteEventsBefore(db: Kysely<DB>, before: Date): Promise<number> {
  const result = await db.deleteFrom('webhook_events').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
