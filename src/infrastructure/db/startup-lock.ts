import { sql, type Kysely } from 'kysely';
import type { Database } from './connect.js';
import type { DB } from './schema.js';

// Any constant works; it only has to be the same for every instance starting on the same database.
const STARTUP_LOCK_ID = 72_961_774;

/**
 * Serialises start-up work (migrations, demo data) between instances starting together on one database: held until
 * the caller's transaction ends, so the next instance re-checks what the first one committed.
 */
export async function takeStartupLock(trx: Kysely<DB>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${STARTUP_LOCK_ID})`.execute(trx);
}

/**
 * Runs `work` while holding the start-up lock, on PostgreSQL (the embedded database has one process by its directory
 * lock, and one connection, which `work` needs). For start-up work on other connections than the lock's: the job
 * queue's own installation races between instances that find it missing together (two `CREATE SCHEMA IF NOT
 * EXISTS` at once: a duplicate key on pg_namespace), so instances install it one after the other.
 */
export async function whileHoldingStartupLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.kind !== 'postgres') return work();
  return database.db.transaction().execute(async (trx) => {
    await takeStartupLock(trx);
    return work();
  });
}
