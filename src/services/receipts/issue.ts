import type { Kysely } from 'kysely';
import type { ReceiptPolicy } from '../../config/receipts.js';
import { financialYearOf } from '../../domain/financial-year.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  issueReceipts,
  lockSettledDonations,
  type SettledDonations,
} from '../../infrastructure/repositories/receipt-issue.js';
import { existingIssuerId, issuerId } from '../../infrastructure/repositories/receipts.js';

/**
 * Donations receipted per statement. One statement for a whole 100,000-entry batch (receipts, outbox rows and jobs)
 * outlasted DB_STATEMENT_TIMEOUT_MS and dead-lettered the batch; slices keep each statement short, and the year's
 * counter row stays locked until commit, so the numbers of consecutive slices are still gapless. A batch is sliced
 * by entry position, so its donations never travel to this process and back.
 */
const ISSUE_SLICE = 5_000;

/** What a settling transaction receipts: a batch's settlements (it has `entryCount` entries) or donations by id. */
export type Settled = { batchId: string; entryCount: number } | { donationIds: string[] };

/**
 * Issues the receipts of donations just settled, inside the settling transaction (docs/receipts.md, "Issue"): each
 * settled donation whose net amount reaches RECEIPT_MINIMUM gets one receipt, numbered in the financial year of the
 * settlement (`settledAt`, else the transaction's time) in the foundation's time zone, and one message in the mail
 * outbox. Live donations are receipted in the live series, others as samples. Set-based: a 100,000-entry batch is a
 * few dozen statements. Returns how many receipts were issued.
 *
 * The numbering takes the year's counter row until commit. A transaction that also records an event (whose sequence
 * row is also held until commit) issues first and records the event after, as late as it can: every settling
 * transaction takes the two rows in that order (docs/decisions/0051-receipt-counter-before-event-sequence.md).
 */
export async function issueAtSettlement(
  trx: Kysely<DB>,
  settled: Settled,
  policy: ReceiptPolicy,
  settledAt?: Date,
): Promise<number> {
  if ('donationIds' in settled && settled.donationIds.length === 0) return 0;
  // A remittance entry is the partner's word only: with RECEIPTS_AFTER=funds_received its donations are receipted
  // when a bank line is matched to it instead (docs/bank-statements.md, "Receipts"). A debit's settlement is money
  // received, so debits are receipted here either way.
  if ('batchId' in settled && policy.after === 'funds_received') return 0;
  const issuerTerms = { ...policy.issuer, minimumCents: policy.minimumCents, timeZone: policy.timeZone };
  const locked = await lockSettledDonations(
    trx,
    'batchId' in settled ? { batchId: settled.batchId } : settled,
    existingIssuerId(issuerTerms),
  );
  const issuedAt = settledAt ?? locked.at;
  // The issuer's row is read with the locks; it is created the first time its terms are used.
  const issuer = locked.also ?? (await issuerId(trx, issuerTerms));
  const terms = {
    issuerId: issuer,
    minimumCents: policy.minimumCents,
    timeZone: policy.timeZone,
    financialYear: financialYearOf(issuedAt, policy.timeZone),
    issuedAt,
    mailHeld: policy.mailHeld,
  };
  let issued = 0;
  for (const slice of slicesOf(settled)) issued += await issueReceipts(trx, slice, terms);
  return issued;
}

/** The settled donations in slices of at most ISSUE_SLICE entries (a batch) or donations (ids). */
function* slicesOf(settled: Settled): Generator<SettledDonations> {
  if ('donationIds' in settled) {
    for (let start = 0; start < settled.donationIds.length; start += ISSUE_SLICE)
      yield { donationIds: settled.donationIds.slice(start, start + ISSUE_SLICE) };
    return;
  }
  for (let from = 0; from < settled.entryCount; from += ISSUE_SLICE)
    yield { batchId: settled.batchId, positions: { from, to: from + ISSUE_SLICE } };
}
