import type { Kysely } from 'kysely';
import { centsToAmount } from '../../domain/money.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { BankMatchingSettings } from '../../config/index.js';
import { donationsSettledBy } from '../../infrastructure/repositories/bank-matches.js';
import type { ReceivedEntry } from '../../infrastructure/repositories/bank-statements.js';
import { issueAtSettlement } from '../receipts/issue.js';
import { recordEvent } from '../webhooks/record-event.js';

/** Entries listed in one `remittance.funds_received` event: a match of a whole large batch is told in parts. */
const ENTRIES_PER_EVENT = 1000;

/**
 * Tells each partner, in the transaction of the decision, which of its entries' money is now received (or, after an
 * operator undid a match, no longer is): one `remittance.funds_received` event per batch and ENTRIES_PER_EVENT.
 * With RECEIPTS_AFTER=funds_received, the donations these entries settled are receipted now, in the same
 * transaction (an undone match leaves receipts issued in force: docs/bank-statements.md, "Receipts").
 */
export async function recordFundsReceived(
  trx: Kysely<DB>,
  entries: readonly ReceivedEntry[],
  change: { received: boolean; at: Date; settings: Pick<BankMatchingSettings, 'apiBaseUrl' | 'receipts'> },
): Promise<void> {
  if (entries.length === 0) return;
  const { apiBaseUrl, receipts } = change.settings;
  const byBatch = new Map<string, ReceivedEntry[]>();
  for (const entry of entries) {
    const list = byBatch.get(entry.batch_id);
    if (list) list.push(entry);
    else byBatch.set(entry.batch_id, [entry]);
  }
  for (const [batchId, list] of byBatch) {
    const owner = { partnerId: list[0]!.partner_id, environment: list[0]!.environment };
    list.sort((a, b) => a.position - b.position);
    for (let from = 0; from < list.length; from += ENTRIES_PER_EVENT) {
      const data = {
        batchId,
        entries: list.slice(from, from + ENTRIES_PER_EVENT).map((e) => ({
          index: e.position,
          bankReferenceId: e.bank_reference_id,
          amount: centsToAmount(Number(e.amount_cents)),
          fundsReceived: change.received,
          fundsReceivedAt: change.received ? change.at.toISOString() : null,
        })),
        url: `${apiBaseUrl}/remittances/${batchId}`,
      };
      await recordEvent(trx, owner, 'remittance.funds_received', data, change.at);
    }
  }
  if (!change.received || receipts.after !== 'funds_received') return;
  const donationIds = await donationsSettledBy(
    trx,
    entries.map((e) => ({ batchId: e.batch_id, position: e.position })),
  );
  await issueAtSettlement(trx, { donationIds }, receipts, change.at);
}
