import type { Kysely } from 'kysely';
import { centsToAmount } from '../../domain/money.js';
import {
  isException,
  OUTCOMES,
  type EntryResult,
  type EntryToReconcile,
  type Outcome,
} from '../../domain/reconciliation.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { CompletedBatch } from '../../infrastructure/repositories/reconciliation.js';
import { recordEvent } from '../webhooks/record-event.js';

/**
 * Records `remittance.completed` in the transaction that completes the batch: the batch's summary (counts and
 * amounts by outcome) and the URL of its full report. Amounts are AUD, as in the report.
 */
export async function recordRemittanceCompleted(
  trx: Kysely<DB>,
  batch: CompletedBatch,
  entries: readonly EntryToReconcile[],
  results: readonly EntryResult[],
  apiBaseUrl: string,
): Promise<void> {
  const batchId = batch.id;
  const amountOf = new Map(entries.map((e) => [e.position, e.amountCents]));
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const cents = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const result of results) {
    counts[result.outcome] += 1;
    cents[result.outcome] += amountOf.get(result.position) ?? 0;
  }
  const exceptionCents = OUTCOMES.filter(isException).reduce((sum, o) => sum + cents[o], 0);
  const data = {
    batchId,
    status: batch.status,
    channel: batch.channel,
    fundraiserId: batch.fundraiser_id,
    receivedAt: new Date(batch.created_at).toISOString(),
    completedAt: batch.completed_at ? new Date(batch.completed_at).toISOString() : null,
    counts: {
      entries: results.length,
      matched: counts.matched,
      exceptions: results.length - counts.matched,
      byOutcome: counts,
    },
    amounts: {
      total: centsToAmount(Number(batch.total_cents)),
      matched: centsToAmount(cents.matched),
      exceptions: centsToAmount(exceptionCents),
      byOutcome: Object.fromEntries(OUTCOMES.map((o) => [o, centsToAmount(cents[o])])),
    },
    url: `${apiBaseUrl}/remittances/${batchId}`,
  };
  await recordEvent(trx, { partnerId: batch.partner_id, environment: batch.environment }, 'remittance.completed', data);
}
