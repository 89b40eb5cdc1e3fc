import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Rows deleted per statement: short transactions and row locks, however large the backlog after an outage. */
const CHUNK = 5000;

async function inChunks(run: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await run();
    total += deleted;
    if (deleted < CHUNK) return total;
  }
}

/**
 * Idempotency keys older than `retentionHours`: a retry after that is a new request. Only the Idempotency-Key
 * table is touched; a donation's natural key (partner, environment, channel, transaction.id:
 * docs/decisions/0012-idempotent-retries.md) lives on the donation itself and dedupes retries forever.
 */
export function pruneIdempotencyKeys(db: Kysely<DB>, retentionHours: number): Promise<number> {
  return inChunks(async () => {
    const result = await sql`
      delete from idempotency_keys where (partner_id, key) in (
        select partner_id, key from idempotency_keys
        where created_at < now() - make_interval(hours => ${retentionHours}) limit ${CHUNK})`.execute(db);
    return Number(result.numAffectedRows ?? 0);
  });
}

/** Quota windows that ended more than a whole window ago (each partner has its own window length). */
export function pruneStaleQuotaCounters(db: Kysely<DB>): Promise<number> {
  return inChunks(async () => {
    const result = await sql`
      delete from quota_counters where (partner_id, window_start) in (
        select q.partner_id, q.window_start from quota_counters q join partners p on p.id = q.partner_id
        where q.window_start < now() - make_interval(secs => 2 * p.quota_window_seconds) limit ${CHUNK})`.execute(db);
    return Number(result.numAffectedRows ?? 0);
  });
}

/**
 * Failed-authentication windows that ended more than a whole window ago; those of a known client id (guesses at
 * its secret) are kept a week, for the partner's page.
 */
export function pruneAuthFailureCounters(db: Kysely<DB>, windowSeconds: number): Promise<number> {
  return inChunks(async () => {
    const result = await sql`
      delete from auth_failure_counters where (key, window_start) in (
        select key, window_start from auth_failure_counters
        where window_start < now() - make_interval(secs => ${2 * windowSeconds})
          and (key not like 'client:%' or window_start < now() - interval '7 days')
        limit ${CHUNK})`.execute(db);
    return Number(result.numAffectedRows ?? 0);
  });
}
