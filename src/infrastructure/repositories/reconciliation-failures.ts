import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A batch's failures, as operators see them: the last error of a run, and dead-lettering once retries ran out. */

const lastError = (message: string) => ({ last_error: message.slice(0, 2000), last_error_at: sql<Date>`now()` });

/** Notes a failed run on the batch, for operators (the queue retries it). */
export async function recordFailure(db: Kysely<DB>, batchId: string, message: string) {
  await db.updateTable('remittance_batches').set(lastError(message)).where('id', '=', batchId).execute();
}

/** Marks a batch whose job ran out of retries; only an operator's retry clears it. */
export async function markDeadLettered(db: Kysely<DB>, batchId: string, message: string | null) {
  await db
    .updateTable('remittance_batches')
    .set({ dead_lettered_at: sql`coalesce(dead_lettered_at, now())`, ...(message ? lastError(message) : {}) })
    .where('id', '=', batchId)
    .where('status', 'in', ['accepted', 'processing'])
    .execute();
}

export async function clearDeadLettered(db: Kysely<DB>, batchId: string) {
  await db.updateTable('remittance_batches').set({ dead_lettered_at: null }).where('id', '=', batchId).execute();
}
