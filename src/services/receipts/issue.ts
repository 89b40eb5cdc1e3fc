import type { Kysely } from 'kysely';
import type { ReceiptPolicy } from '../../config/receipts.js';
import { financialYearOf } from '../../domain/financial-year.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  issueReceipts,
  lockSettledDonations,
  settledDonationIds,
  type SettledDonations,
} from '../../infrastructure/repositories/receipt-issue.js';
import { issuerId } from '../../infrastructure/repositories/receipts.js';

/**
 * Donations receipted per statement. One statement for a whole 100,000-entry batch (receipts, outbox rows and jobs)
 * outlasted DB_STATEMENT_TIMEOUT_MS and dead-lettered the batch; slices keep each statement short, and the year's
 * counter row stays locked until commit, so the numbers of consecutive slices are still gapless.
 */
const ISSUE_SLICE = 5_000;

/**
 * Issues the receipts of donations just settled, inside the settling transaction (docs/receipts.md, "Issue"): each
 * settled donation whose net amount reaches RECEIPT_MINIMUM gets one receipt, numbered in the financial year of the
 * settlement (`settledAt`, else the transaction's time) in the foundation's time zone, and one message in the mail
 * outbox. Live donations are receipted in the live series, others as samples. Set-based: a 100,000-entry batch is a
 * few dozen statements. Returns how many receipts were issued.
 */
export async function issueAtSettlement(
  trx: Kysely<DB>,
  settled: SettledDonations,
  policy: ReceiptPolicy,
  settledAt?: Date,
): Promise<number> {
  if ('donationIds' in settled && settled.donationIds.length === 0) return 0;
  // A remittance entry is the partner's word only: with RECEIPTS_AFTER=funds_received its donations are receipted
  // when a bank line is matched to it instead (docs/bank-statements.md, "Receipts"). A debit's settlement is money
  // received, so debits are receipted here either way.
  if ('batchId' in settled && policy.after === 'funds_received') return 0;
  const now = await lockSettledDonations(trx, settled);
  const issuedAt = settledAt ?? now;
  const issuer = await issuerId(trx, {
    ...policy.issuer,
    minimumCents: policy.minimumCents,
    timeZone: policy.timeZone,
  });
  const terms = {
    issuerId: issuer,
    minimumCents: policy.minimumCents,
    timeZone: policy.timeZone,
    financialYear: financialYearOf(issuedAt, policy.timeZone),
    issuedAt,
    mailHeld: policy.mailHeld,
  };
  const ids = 'batchId' in settled ? await settledDonationIds(trx, settled.batchId) : settled.donationIds;
  let issued = 0;
  for (let start = 0; start < ids.length; start += ISSUE_SLICE)
    issued += await issueReceipts(trx, { donationIds: ids.slice(start, start + ISSUE_SLICE) }, terms);
  return issued;
}
