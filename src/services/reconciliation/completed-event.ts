import type { Kysely } from 'kysely';
import { centsToAmount } from '../../domain/money.js';
import type { OutcomeTally } from '../../domain/outcome-tally.js';
import { isException, OUTCOMES } from '../../domain/remittance-outcomes.js';
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
  tally: OutcomeTally,
  apiBaseUrl: string,
): Promise<void> {
  const batchId = batch.id;
  const { counts, cents } = tally;
  const exceptionCents = OUTCOMES.filter(isException).reduce((sum, o) => sum + cents[o], 0);
  const data = {
    batchId,
    status: batch.status,
    channel: batch.channel,
    fundraiserId: batch.fundraiser_id,
    receivedAt: new Date(batch.created_at).toISOString(),
    completedAt: batch.completed_at ? new Date(batch.completed_at).toISOString() : null,
    counts: {
      entries: tally.entries,
      matched: counts.matched,
      exceptions: tally.entries - counts.matched,
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
