import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import type { OnBatchStored } from '../accept-remittances.js';
import { enqueueJob, reconciliationJob } from '../jobs/definitions.js';

/** POST /remittances' hook: the reconciliation job is enqueued in the transaction that stores the batch. */
export const enqueueReconciliation: OnBatchStored = async (trx, batchId) => {
  await enqueueReconciliationJob(trx, batchId);
};

export function enqueueReconciliationJob(trx: Kysely<DB>, batchId: string): Promise<string> {
  return enqueueJob(trx, reconciliationJob, { batchId });
}
