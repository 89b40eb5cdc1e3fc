import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface ReconciliationBacklog {
  /** Batches accepted or processing, dead-lettered ones aside; counted up to `countUpTo` and no further. */
  batches: number;
  /** Seconds the oldest batch not yet taken by a worker has waited (database clock); null when none waits. */
  oldestWaitingSeconds: number | null;
}

/**
 * The reconciliation backlog, read on `remittance_batches_status_idx` (status, created_at): the count stops at
 * `countUpTo` rows, so its cost is bounded by the bound it is compared with however far behind the workers are, and
 * the oldest waiting batch is the first entry of the index under `accepted`. A dead-lettered batch waits for an
 * operator, not for a worker: counted, it would hold the door shut until someone looked
 * (docs/decisions/0081-remittance-backlog-refused-at-the-door.md).
 */
export async function readReconciliationBacklog(
  db: Kysely<DB>,
  { countUpTo }: { countUpTo: number },
): Promise<ReconciliationBacklog> {
  const { rows } = await sql<{ batches: number; oldest: number | string | null }>`
    select
      (select count(*)::int from (
         select 1 from remittance_batches
         where status in ('accepted', 'processing') and dead_lettered_at is null
         limit ${countUpTo}) counted) as batches,
      extract(epoch from now() - (
         select created_at from remittance_batches
         where status = 'accepted' and dead_lettered_at is null
         order by created_at limit 1))::float8 as oldest`.execute(db);
  const row = rows[0]!;
  return { batches: row.batches, oldestWaitingSeconds: row.oldest === null ? null : Math.max(0, Number(row.oldest)) };
}
