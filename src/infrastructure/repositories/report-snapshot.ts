import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.js';

/*
 * A report is read in one REPEATABLE READ, read-only transaction: its status, counts and entries all come from one
 * snapshot, so they agree with each other whatever the reconciliation commits meanwhile.
 *
 * A snapshot alone does not order the report against the *time* written by the final write: `completed_at` is the
 * clock when that write runs, and its commit becomes visible a little later (a WAL flush). A reader whose snapshot
 * fell in between would see `processing` after the stated completion. So the final write holds an exclusive lock
 * on the batch's report key from just before it reads the clock until it commits, and a reader holds the shared
 * lock for its whole snapshot: either its snapshot precedes the worker's lock (and so the clock the worker reads),
 * or it waits for the commit and reads the completed batch.
 */

const reportKey = (batchId: string) => sql`hashtextextended(${`remittance-report:${batchId}`}, 0)`;

/**
 * The reconciliation's final write: a condition for the WHERE clause of the statement that writes `completed_at`,
 * true once the lock is held. An uncorrelated subquery is evaluated once, before any row's new values (and so the
 * clock) are computed, and the lock is then held until commit: the same order as a statement of its own, without
 * the round trip.
 */
export const reportLockedForCompletion = (batchId: string): RawBuilder<boolean> =>
  sql<boolean>`(select count(pg_advisory_xact_lock(${reportKey(batchId)})) = 1)`;

/** Starts a read-only REPEATABLE READ transaction (PGlite's dialect ignores Kysely's access mode, so SQL sets it). */
async function readOnly(trx: Kysely<DB>): Promise<void> {
  await sql`set transaction read only`.execute(trx);
}

const WAIT = Symbol('wait for the final write');

/**
 * Runs `read` on one snapshot of the batch, never in the window between its completion time and its commit.
 * The snapshot is taken by the try-lock statement itself, before the lock is known: if a final write holds the
 * lock, that snapshot may predate its commit, so the transaction is abandoned, the commit waited for, and the read
 * started again (at most twice: a batch completes once).
 */
export async function readReportSnapshot<T>(
  db: Kysely<DB>,
  batchId: string,
  read: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await readOnly(trx);
        const { rows } = await sql<{
          free: boolean;
        }>`select pg_try_advisory_xact_lock_shared(${reportKey(batchId)}) as free`.execute(trx);
        if (!rows[0]?.free && attempt < 3) return WAIT;
        return { value: await read(trx) };
      });
    if (result !== WAIT) return result.value;
    // Outside a transaction a transaction-level lock is released as soon as it is granted: a barrier.
    await sql`select pg_advisory_xact_lock_shared(${reportKey(batchId)})`.execute(db);
  }
}

/** A snapshot held open by the caller (a streamed export of a batch still being reconciled); commit it when done. */
export async function openReadOnlySnapshot(db: Kysely<DB>) {
  const trx = await db.startTransaction().setIsolationLevel('repeatable read').execute();
  try {
    await readOnly(trx);
  } catch (err) {
    await trx.rollback().execute();
    throw err;
  }
  return trx;
}
