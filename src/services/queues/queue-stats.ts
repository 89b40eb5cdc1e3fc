import { sql, type Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import { QUEUE_SCHEMA } from '../../infrastructure/queue/enqueue.js';
import { QUEUE_POLICIES, type QueueName } from '../../infrastructure/queue/queues.js';

export interface QueueStats {
  queue: QueueName;
  /** Jobs due now and not yet taken by a worker: the backlog. */
  waiting: number;
  /** Jobs waiting for a later start (a retry's backoff, a webhook's next attempt, the next housekeeping run). */
  scheduled: number;
  /** How long the oldest due job has been due (database clock); null when nothing waits. */
  oldestWaitingSeconds: number | null;
}

/**
 * Depth and age of every background queue, read from pg-boss's job table. Only jobs not yet taken are read, and
 * pg-boss indexes exactly those (job_i5: name, start_after where state < active), so the cost does not grow with
 * the finished jobs kept until housekeeping archives them: cheap enough for every metrics scrape. A job's age
 * counts from when it became due (its start_after), so a retry waiting out its backoff is not "old".
 */
export async function readQueueStats(db: Kysely<DB>): Promise<QueueStats[]> {
  const names = Object.keys(QUEUE_POLICIES) as QueueName[];
  const { rows } = await sql<{ name: string; waiting: number; scheduled: number; oldest: number | null }>`
    select name,
           count(*) filter (where start_after <= now())::int as waiting,
           count(*) filter (where start_after > now())::int as scheduled,
           extract(epoch from now() - min(start_after) filter (where start_after <= now()))::float8 as oldest
    from ${sql.raw(QUEUE_SCHEMA)}.job
    where name = any(${names}::text[]) and state < 'active'
    group by name`.execute(db);
  const byName = new Map(rows.map((row) => [row.name, row]));
  return names.map((queue) => {
    const row = byName.get(queue);
    return {
      queue,
      waiting: Number(row?.waiting ?? 0),
      scheduled: Number(row?.scheduled ?? 0),
      oldestWaitingSeconds: row?.oldest == null ? null : Math.max(0, Number(row.oldest)),
    };
  });
}
