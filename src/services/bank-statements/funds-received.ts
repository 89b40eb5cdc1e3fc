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

type Change = { received: boolean; at: Date; settings: Pick<BankMatchingSettings, 'apiBaseUrl' | 'receipts'> };

/**
 * Tells each partner, in the transaction of the decision, which of its entries' money is now received (or, after an
 * operator undid a match, no longer is): one `remittance.funds_received` event per batch and ENTRIES_PER_EVENT.
 * With RECEIPTS_AFTER=funds_received, the donations these entries settled are receipted now, in the same
 * transaction (an undone match leaves receipts issued in force: docs/bank-statements.md, "Receipts").
 */
export async function recordFundsReceived(
  trx: Kysely<DB>,
  entries: readonly ReceivedEntry[],
  change: Change,
): Promise<void> {
  const byBatch = new Map<string, ReceivedEntry[]>();
  for (const entry of entries) {
    const list = byBatch.get(entry.batch_id);
    if (list) list.push(entry);
    else byBatch.set(entry.batch_id, [entry]);
  }
  const inOrder = [...byBatch.values()].flatMap((list) => list.sort((a, b) => a.position - b.position));
  await recordFundsReceivedInOrder(trx, [inOrder], change);
}

/**
 * recordFundsReceived for entries given in pages, each batch's entries together and by position (as
 * receivedEntries reads them): the same events, with one page of entries held at a time, not every entry a large
 * statement pays; when receipts wait for the money, each page's donations are receipted as the page comes.
 */
export async function recordFundsReceivedInOrder(
  trx: Kysely<DB>,
  pages: AsyncIterable<readonly ReceivedEntry[]> | Iterable<readonly ReceivedEntry[]>,
  change: Change,
): Promise<void> {
  const receipting = change.received && change.settings.receipts.after === 'funds_received';
  let part: ReceivedEntry[] = [];
  for await (const page of pages) {
    // A page's receipts before its events: the year's receipt counter before the partner's event sequence, as in
    // every settling transaction (docs/decisions/0051-receipt-counter-before-event-sequence.md).
    if (receipting && page.length > 0) {
      const settled = page.map((e) => ({ batchId: e.batch_id, position: e.position }));
      const donationIds = await donationsSettledBy(trx, settled);
      await issueAtSettlement(trx, { donationIds }, change.settings.receipts, change.at);
    }
    for (const entry of page) {
      if (part.length === ENTRIES_PER_EVENT || (part.length > 0 && part[0]!.batch_id !== entry.batch_id)) {
        await recordEntriesEvent(trx, part, change);
        part = [];
      }
      part.push(entry);
    }
  }
  if (part.length > 0) await recordEntriesEvent(trx, part, change);
}

/** One event: entries of one batch, by position. */
async function recordEntriesEvent(trx: Kysely<DB>, part: readonly ReceivedEntry[], change: Change) {
  const batchId = part[0]!.batch_id;
  const owner = { partnerId: part[0]!.partner_id, environment: part[0]!.environment };
  const data = {
    batchId,
    entries: part.map((e) => ({
      index: e.position,
      bankReferenceId: e.bank_reference_id,
      amount: centsToAmount(Number(e.amount_cents)),
      fundsReceived: change.received,
      fundsReceivedAt: change.received ? change.at.toISOString() : null,
    })),
    url: `${change.settings.apiBaseUrl}/remittances/${batchId}`,
  };
  await recordEvent(trx, owner, 'remittance.funds_received', data, change.at);
}
