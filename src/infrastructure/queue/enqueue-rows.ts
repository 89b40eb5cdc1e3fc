import { sql, type RawBuilder } from 'kysely';
import { QUEUE_SCHEMA } from './enqueue.js';
import type { QueueName } from './queues.js';

/**
 * The SQL that enqueues one job of `queue` per row of `rows` (a CTE of the caller's statement with an `id` column),
 * each job's data `{ [key]: id }`. For writes that create thousands of jobs at once (a remittance batch's receipts):
 * one statement in the caller's transaction, instead of one pg-boss send per row. It writes pg-boss 10's job table
 * as its own send does, with the queue's policy (retries, backoff, expiry, dead letter) read from its queue row, and
 * returns the number of jobs; a queue that was never installed gives none, which the caller must refuse.
 */
export function insertJobsForRows(queue: QueueName, rows: string, key: string): RawBuilder<unknown> {
  const schema = sql.raw(QUEUE_SCHEMA);
  return sql`insert into ${schema}.job (id, name, data, priority, start_after, expire_in, keep_until, retry_limit,
      retry_delay, retry_backoff, dead_letter, policy)
    select gen_random_uuid(), q.name, jsonb_build_object(${key}::text, r.id::text), 0, now(),
      coalesce(q.expire_seconds, 900) * interval '1 second',
      now() + coalesce(q.retention_minutes * interval '1 minute', interval '14 days'),
      coalesce(q.retry_limit, 2),
      case when coalesce(q.retry_backoff, false) then greatest(coalesce(q.retry_delay, 0), 1)
           else coalesce(q.retry_delay, 0) end,
      coalesce(q.retry_backoff, false), q.dead_letter, q.policy
    from ${sql.raw(rows)} r join ${schema}.queue q on q.name = ${queue}
    returning 1`;
}
