import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import { enqueueInTransaction } from '../../infrastructure/queue/job-queue.js';
import { RECONCILIATION_QUEUE } from '../../infrastructure/queue/queues.js';
import type { OnBatchStored } from '../accept-remittances.js';
import type { ReconciliationJob } from './worker.js';

/** POST /remittances' hook: the reconciliation job is enqueued in the transaction that stores the batch. */
export const enqueueReconciliation: OnBatchStored = async (trx, batchId) => {
  await enqueueReconciliationJob(trx, batchId);
};

export function enqueueReconciliationJob(trx: Kysely<DB>, batchId: string): Promise<string> {
  return enqueueInTransaction(trx, RECONCILIATION_QUEUE, { batchId } satisfies ReconciliationJob);
}
