import type { Kysely } from 'kysely';
import { addToTally, emptyTally, type OutcomeTally } from '../../domain/outcome-tally.js';
import { reconcileEntries, type EntryToReconcile } from '../../domain/reconciliation.js';
import { completedStatus, type Outcome } from '../../domain/remittance-outcomes.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  completeBatch,
  loadEntries,
  lockBatch,
  lockPartnerReconciliations,
  lockReconciliationKeys,
  saveDecisions,
  startProcessing,
  type BatchToReconcile,
} from '../../infrastructure/repositories/reconciliation.js';
import { loadClaims, loadDonationFacts } from '../../infrastructure/repositories/reconciliation-facts.js';
import { SAMPLE_RECEIPT_POLICY, type ReceiptPolicy } from '../../config/receipts.js';
import { issueAtSettlement } from '../receipts/issue.js';
import { recordRemittanceCompleted } from './completed-event.js';

/**
 * Entries decided and written per step. A batch is read, decided and written a chunk at a time (in position order,
 * inside the one transaction), so a 100,000-entry batch holds 5,000 entries' facts in memory rather than all of
 * them; each chunk's decisions see what the chunks before it settled, as the rules require.
 */
const RECONCILIATION_CHUNK = 5000;

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
  chunkSize = RECONCILIATION_CHUNK,
  /** The receipts' issuer and rules; the sample issuer's when not given (tests of reconciliation alone). */
  options: { receipts?: ReceiptPolicy } = {},
): Promise<ReconcileResult> {
  const batch = await startProcessing(db, batchId);
  if (!batch) return { batchId, ran: false, reason: 'not pending' };
  await checkpoint?.('processing', batchId);

  const result = await db.transaction().execute(async (trx) => {
    // A run whose job expired while it worked may have been retried; whichever gets here second finds it done.
    const locked = await lockBatch(trx, batchId);
    if (locked?.status !== 'processing') return null;
    const tally = emptyTally();
    // A batch of one chunk locks exactly its keys; a bigger one its partner's reconciliations as a whole.
    if (locked.entryCount > chunkSize) await lockPartnerReconciliations(trx, batch);
    // Positions run from 0 to entryCount - 1: the last chunk is known without reading past it.
    for (let from = 0; from < locked.entryCount; from += chunkSize) {
      const entries = await loadEntries(trx, batchId, from, chunkSize);
      await decideChunk(trx, batch, entries, tally, { lockKeys: locked.entryCount <= chunkSize });
    }
    const exceptions = tally.entries - tally.counts.matched;
    const status = completedStatus(exceptions);
    const completed = await completeBatch(trx, batch, { status, counts: tally.counts, exceptions });
    // Every donation this run settled is receipted in this transaction, all at once (docs/receipts.md). The year's
    // receipt counter and then the event's sequence row are held until commit by every settling transaction, so
    // they come last, in that order (docs/decisions/0051-receipt-counter-before-event-sequence.md).
    if (tally.counts.matched > 0)
      await issueAtSettlement(
        trx,
        { batchId, entryCount: locked.entryCount },
        options.receipts ?? SAMPLE_RECEIPT_POLICY,
      );
    await recordRemittanceCompleted(trx, completed, tally, apiBaseUrl);
    await checkpoint?.('decided', batchId);
    return { status, counts: tally.counts, exceptions };
  });
  if (!result) return { batchId, ran: false, reason: 'finished by another run' };
  await checkpoint?.('committed', batchId);
  return { batchId, ran: true, ...result };
}

/** Decides and writes one chunk of entries, adding its outcomes to the batch's tally. */
async function decideChunk(
  trx: Kysely<DB>,
  batch: BatchToReconcile,
  entries: EntryToReconcile[],
  tally: OutcomeTally,
  { lockKeys }: { lockKeys: boolean },
) {
  const donationIds = [...new Set(entries.flatMap((e) => e.donationIds))];
  const bankReferenceIds = [...new Set(entries.map((e) => e.bankReferenceId))];
  if (lockKeys) await lockReconciliationKeys(trx, batch, { bankReferenceIds, donationIds });
  // Read after the locks: under READ COMMITTED each statement sees what the batches before us committed, and
  // what this batch's earlier chunks wrote.
  const donations = await loadDonationFacts(trx, batch, donationIds);
  const claims = await loadClaims(trx, batch, bankReferenceIds);
  const results = reconcileEntries({ batchId: batch.id, entries, donations, claims });
  await saveDecisions(trx, batch, results);
  addToTally(tally, entries, results);
}
