import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema.js';
import type { WebhookEventsTable } from '../db/webhook-tables.js';
import type { Owner } from './webhook-endpoints.js';

/** The outbox and partners' event log. */

export type EventRow = Selectable<WebhookEventsTable>;

/**
 * The partner's next sequence number. The counter's row stays locked until the transaction ends, so a partner's
 * events get their numbers in commit order and without gaps (a rolled-back transaction gives its number back).
 */
export async function nextSequence(trx: Kysely<DB>, owner: Owner): Promise<number> {
  const row = await trx
    .insertInto('webhook_event_sequences')
    .values({ partner_id: owner.partnerId, environment: owner.environment, last_sequence: 1 })
    .onConflict((oc) =>
      oc
        .columns(['partner_id', 'environment'])
        .doUpdateSet({ last_sequence: sql`webhook_event_sequences.last_sequence + 1` }),
    )
    .returning('last_sequence')
    .executeTakeFirstOrThrow();
  return Number(row.last_sequence);
}

export async function insertEvent(
  trx: Kysely<DB>,
  event: { id: string; owner: Owner; sequence: number; type: string; data: unknown; createdAt: Date },
): Promise<EventRow> {
  return trx
    .insertInto('webhook_events')
    .values({
      id: event.id,
      partner_id: event.owner.partnerId,
      environment: event.owner.environment,
      sequence: event.sequence,
      type: event.type,
      data: JSON.stringify(event.data),
      created_at: event.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
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

/** Deletes events created before `before`, with their deliveries and attempts; returns how many. */
export async function deleteEventsBefore(db: Kysely<DB>, before: Date): Promise<number> {
  const result = await db.deleteFrom('webhook_events').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
