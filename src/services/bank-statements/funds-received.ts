import type { Kysely } from 'kysely';
import { centsToAmount } from '../../domain/money.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  entryKeyText,
  receivedAtOf,
  settlingEntries,
  type EntryKey,
} from '../../infrastructure/repositories/bank-matches.js';
import type { ReceivedEntry } from '../../infrastructure/repositories/bank-statements.js';
import { recordEvent } from '../webhooks/record-event.js';

/** Entries listed in one `remittance.funds_received` event: a match of a whole large batch is told in parts. */
const ENTRIES_PER_EVENT = 1000;

/**
 * Tells each partner, in the transaction of the decision, which of its entries' money is now received (or, after an
 * operator undid a match, no longer is): one `remittance.funds_received` event per batch and ENTRIES_PER_EVENT.
 */
export async function recordFundsReceived(
  trx: Kysely<DB>,
  entries: readonly ReceivedEntry[],
  change: { received: boolean; at: Date; apiBaseUrl: string },
): Promise<void> {
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
        url: `${change.apiBaseUrl}/remittances/${batchId}`,
      };
      await recordEvent(trx, owner, 'remittance.funds_received', data, change.at);
    }
  }
}

/**
 * When the money of each of these remittance entries was received, or null when it was not (no bank line matched
 * to it). The hook for work that waits for money received, such as receipts with RECEIPTS_AFTER=funds_received.
 */
export async function fundsReceivedFor(
  db: Kysely<DB>,
  entries: readonly EntryKey[],
): Promise<Map<string, Date | null>> {
  const received = await receivedAtOf(db, entries);
  return new Map(entries.map((key) => [entryKeyText(key), received.get(entryKeyText(key)) ?? null]));
}

/**
 * Per donation (by reference id): when the money of the entry that settled it was received, or null (not settled
 * by a remittance entry, or its money not received yet). Donations collected by a debit have no entry: the payment
 * provider's settlement is their money received, so they are answered with their settlement time by the caller.
 */
export async function donationFundsReceived(
  db: Kysely<DB>,
  donationReferenceIds: readonly string[],
): Promise<Map<string, Date | null>> {
  const settled = await settlingEntries(db, donationReferenceIds);
  const keys = settled.map((s) => ({ batchId: s.batch_id!, position: s.position! }));
  const received = await receivedAtOf(db, keys);
  const byDonation = new Map(
    settled.map((s) => [
      s.donation_reference_id,
      received.get(entryKeyText({ batchId: s.batch_id!, position: s.position! })) ?? null,
    ]),
  );
  return new Map(donationReferenceIds.map((id) => [id, byDonation.get(id) ?? null]));
}
