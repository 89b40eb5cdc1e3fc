import type { Kysely } from 'kysely';
import {
  completedStatus,
  countOutcomes,
  isException,
  reconcileEntries,
  type Outcome,
} from '../../domain/reconciliation.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  lockBatchWithEntries,
  lockReconciliationKeys,
  saveResults,
  startProcessing,
} from '../../infrastructure/repositories/reconciliation.js';
import { loadClaims, loadDonationFacts } from '../../infrastructure/repositories/reconciliation-facts.js';
import { recordRemittanceCompleted } from './completed-event.js';

/** Points of a run the crash tests stop a worker at: after `processing` is committed, before and after the commit. */
export type ReconciliationStage = 'processing' | 'decided' | 'committed';
export type Checkpoint = (stage: ReconciliationStage, batchId: string) => Promise<void>;

export type ReconcileResult =
  | { batchId: string; ran: true; status: string; counts: Record<Outcome, number>; exceptions: number }
  | { batchId: string; ran: false; reason: 'not pending' | 'finished by another run' };

/**
 * Reconciles one stored batch, exactly once however often it is run. The batch is marked `processing` in a short
 * transaction of its own (visible to the partner while the work runs); then every decision and every write
 * happens in one transaction, so a run that dies half-way leaves nothing behind and the next run decides again
 * from the same facts. A run that finds the batch completed does nothing, and the primary keys of the claim and
 * settlement tables refuse a second settlement whatever happens.
 */
export async function reconcileBatch(
  db: Kysely<DB>,
  batchId: string,
  checkpoint?: Checkpoint,
  /** Prefix of the report's URL in `remittance.completed` (scheme, host, base path). */
  apiBaseUrl = '',
): Promise<ReconcileResult> {
  const batch = await startProcessing(db, batchId);
  if (!batch) return { batchId, ran: false, reason: 'not pending' };
  await checkpoint?.('processing', batchId);

  const result = await db.transaction().execute(async (trx) => {
    // A run whose job expired while it worked may have been retried; whichever gets here second finds it done.
    const { status: current, entries } = await lockBatchWithEntries(trx, batchId);
    if (current !== 'processing') return null;
    const donationIds = [...new Set(entries.flatMap((e) => e.donationIds))];
    const bankReferenceIds = [...new Set(entries.map((e) => e.bankReferenceId))];
    await lockReconciliationKeys(trx, batch, { bankReferenceIds, donationIds });
    // Read after the locks: under READ COMMITTED each statement sees what the batches before us committed.
    const donations = await loadDonationFacts(trx, batch, donationIds);
    const claims = await loadClaims(trx, batch, bankReferenceIds);
    const results = reconcileEntries({ batchId, entries, donations, claims });
    const counts = countOutcomes(results);
    const exceptions = results.filter((r) => isException(r.outcome)).length;
    const status = completedStatus(exceptions);
    const completed = await saveResults(trx, batch, results, { status, counts, exceptions });
    await recordRemittanceCompleted(trx, completed, entries, results, apiBaseUrl);
    await checkpoint?.('decided', batchId);
    return { status, counts, exceptions };
  });
  if (!result) return { batchId, ran: false, reason: 'finished by another run' };
  await checkpoint?.('committed', batchId);
  return { batchId, ran: true, ...result };
}
