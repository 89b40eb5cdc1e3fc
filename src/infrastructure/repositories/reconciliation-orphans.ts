import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { QUEUE_SCHEMA } from '../queue/enqueue.js';

/**
 * Active reconciliation jobs whose run is known dead, so that they can be retried at once rather than after their
 * expiry. Known dead: the batch row is not locked, and either the batch is `processing` or the job's heartbeat
 * (which moves `started_on`) stopped `staleAfterSeconds` ago. A live run holds the batch's row lock
 * (`lockBatch`) for its whole transaction, and PostgreSQL ends the transaction, releasing the lock, as soon as the
 * connection of a killed process closes: a kill -9 is seen within a second. A live run is briefly unlocked between
 * marking the batch `processing` and taking the lock: one found there is retried too, and the retry finds the
 * batch locked or finished (reconcileBatch), so the mistake costs a run, never a second settlement.
 * `exclude`: the jobs this process is running.
 */
export async function orphanedReconciliationJobs(
  db: Kysely<DB>,
  queue: string,
  options: { exclude: string[]; staleAfterSeconds: number },
): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select j.id::text as id
    from ${sql.table(`${QUEUE_SCHEMA}.job`)} j
    join remittance_batches b on b.id = (j.data ->> 'batchId')::uuid
    where j.name = ${queue} and j.state = 'active'
      and (b.status = 'processing' or j.started_on < now() - make_interval(secs => ${options.staleAfterSeconds}))
      and not (j.id::text = any(${options.exclude}::text[]))
    for update of b skip locked`.execute(db);
  return rows.map((row) => row.id);
}
