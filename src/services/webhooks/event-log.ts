import type { Kysely } from 'kysely';
import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../api-errors.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { deleteEventsBefore, findEvent, listEvents } from '../../infrastructure/repositories/webhook-events.js';
import { toEventRecord } from './record-event.js';

/**
 * GET /events: the partner's events in sequence order, from the oldest kept or after the event `after`, so a
 * partner that missed deliveries catches up. An `after` that is not one of its events (a typo, another partner's,
 * or pruned after EVENT_RETENTION_DAYS) is a 400 rather than a silent restart from the beginning.
 */
export async function listPartnerEvents(
  db: Kysely<DB>,
  principal: Principal,
  query: { after?: string; limit: number },
) {
  const owner = { partnerId: principal.partnerId, environment: principal.environment };
  let afterSequence = 0;
  if (query.after !== undefined) {
    const event = await findEvent(db, query.after, owner);
    if (!event)
      throw new ApiError('VALIDATION', `after: no event with id ${query.after} (events are kept for a limited time)`);
    afterSequence = Number(event.sequence);
  }
  // One more than asked tells whether there is more to read.
  const rows = await listEvents(db, owner, afterSequence, query.limit + 1);
  const events = rows.slice(0, query.limit).map(toEventRecord);
  return { events, hasMore: rows.length > query.limit };
}

/** Deletes events (with their deliveries and attempts) older than the retention period; returns how many. */
export function pruneEvents(db: Kysely<DB>, retentionDays: number, now: Date = new Date()): Promise<number> {
  return deleteEventsBefore(db, new Date(now.getTime() - retentionDays * 86_400_000));
}
