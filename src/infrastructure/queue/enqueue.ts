import { sql, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { DB } from '../db/schema.js';
import { QUEUE_POLICIES, type QueueName } from './queues.js';
import { transactionExecutor } from './sql-executor.js';
import { notifyOnCommit } from './wakeups.js';

/** pg-boss keeps its tables in this schema of the service's database. */
export const QUEUE_SCHEMA = 'pgboss';

/**
 * Sends jobs only through an executor given per call (a transaction's). Constructing pg-boss touches no database
 * and sending needs no start(): only the installed queue (JobQueue.start, which the server runs before traffic).
 */
const sender = new PgBoss({
  db: { executeSql: () => Promise.reject(new Error('pg-boss sender used without a transaction')) },
  schema: QUEUE_SCHEMA,
  migrate: false,
  supervise: false,
  schedule: false,
});

/**
 * Enqueues in the caller's open transaction: the job exists if and only if that transaction commits. Fails (and
 * so rolls the caller back) when the queue was never installed.
 */
export async function enqueueInTransaction(
  trx: Kysely<DB>,
  queue: QueueName,
  data: object,
  options: { startAfterSeconds?: number } = {},
): Promise<string> {
  const id = await sender.send(queue, data, {
    db: transactionExecutor(trx),
    ...(options.startAfterSeconds ? { startAfter: Number(options.startAfterSeconds.toFixed(3)) } : {}),
  });
  if (!id) throw new Error(`job queue ${queue} refused the job (is the queue installed?)`);
  if (!options.startAfterSeconds && QUEUE_POLICIES[queue].wakeOtherInstances) await notifyOnCommit(trx, queue);
  return id;
}

/**
 * Jobs of a queue by state (created, retry, active, completed, cancelled, failed), for operators; with `data`,
 * only jobs whose data contains it. Jobs finished long ago are archived by maintenance and not counted.
 */
export async function countJobsByState(
  db: Kysely<DB>,
  queue: QueueName,
  data: object = {},
): Promise<Record<string, number>> {
  const { rows } = await sql<{ state: string; count: number }>`
    select state::text, count(*)::int as count from ${sql.raw(QUEUE_SCHEMA)}.job
    where name = ${queue} and data @> ${JSON.stringify(data)}::jsonb group by state`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
}
