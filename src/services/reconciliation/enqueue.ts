import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import type { JobQueue } from '../../infrastructure/queue/job-queue.js';
import { RECONCILIATION_QUEUE } from '../../infrastructure/queue/queues.js';
import { clearDeadLettered } from '../../infrastructure/repositories/reconciliation.js';
import type { OnBatchStored } from '../accept-remittances.js';
import type { ReconciliationJob } from './worker.js';

/** POST /remittances' hook: the reconciliation job is enqueued in the transaction that stores the batch. */
export function enqueueReconciliation(queue: JobQueue): OnBatchStored {
  return async (trx, batchId) => {
    await queue.sendInTransaction(trx, RECONCILIATION_QUEUE, { batchId } satisfies ReconciliationJob);
  };
}

/**
 * An operator's retry of a batch that is not completed (typically dead-lettered): a fresh job with a fresh set of
 * retries. Harmless on a batch that completes meanwhile: the run finds nothing to do.
 */
export async function retryReconciliation(db: Kysely<DB>, queue: JobQueue, batchId: string): Promise<string> {
  await clearDeadLettered(db, batchId);
  return queue.send(RECONCILIATION_QUEUE, { batchId } satisfies ReconciliationJob);
}
