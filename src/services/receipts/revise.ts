import type { Kysely } from 'kysely';
import { financialYearOf } from '../../domain/financial-year.js';
import { receiptNumber } from '../../domain/receipt-number.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { ReceiptRow } from '../../infrastructure/db/schema-receipts.js';
import {
  allocateNumbers,
  findIssuer,
  insertReceipt,
  lockReceiptInForce,
  voidReceipt,
} from '../../infrastructure/repositories/receipts.js';
import { enqueueMail } from '../mail/outbox.js';
import { receiptFacts } from './facts.js';
import { voidNoticeMail } from './receipt-mail.js';

/**
 * Voids and reissues, in the caller's transaction. A receipt is never edited: what changes is said by voiding it
 * and issuing another that names it (docs/receipts.md, "Void and reissue"). A reissue keeps the terms (issuer,
 * minimum, time zone) of the receipt it replaces, and is numbered in the financial year of its own issue.
 */

export interface Replacement {
  amountCents?: number;
  donor?: { name: string; businessName: string | null; email: string };
  reason: string;
}

/** Issues the receipt that replaces `old` (already voided), and queues it to the donor. */
export async function reissue(trx: Kysely<DB>, old: ReceiptRow, change: Replacement): Promise<ReceiptRow> {
  const issuer = await findIssuer(trx, old.issuer_id);
  const now = new Date();
  const year = financialYearOf(now, issuer.time_zone);
  const sequence = await allocateNumbers(trx, old.series, year, 1);
  const { id: _id, voided_at: _v, void_reason: _r, voided_by: _b, ...kept } = old;
  const row = await insertReceipt(trx, {
    ...kept,
    amount_cents: change.amountCents ?? Number(old.amount_cents),
    number: receiptNumber(old.series, year, sequence),
    financial_year: year,
    sequence,
    issued_at: now,
    issue_reason: change.reason,
    replaces_id: old.id,
    ...(change.donor
      ? {
          donor_name: change.donor.name,
          donor_business_name: change.donor.businessName,
          donor_email: change.donor.email,
        }
      : {}),
  });
  return row;
}

/** Voids the donation's receipt in force, if any, and tells the donor; returns the voided row. */
export async function voidAndNotify(
  trx: Kysely<DB>,
  donationId: string,
  voiding: { reason: string; by: string; notice: string | null },
): Promise<ReceiptRow | null> {
  const current = await lockReceiptInForce(trx, donationId);
  if (!current) return null;
  const voided = (await voidReceipt(trx, current.id, voiding))!;
  if (voiding.notice) {
    const mail = voidNoticeMail(await receiptFacts(trx, voided), voiding.notice);
    await enqueueMail(trx, {
      kind: 'receipt-void',
      recipient: voided.donor_email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      about: `donation:${voided.donation_reference_id}`,
    });
  }
  return voided;
}

/** Queues a receipt to its donor (rendered at its first delivery attempt, with its PDF). */
export function queueReceiptMail(trx: Kysely<DB>, receipt: ReceiptRow): Promise<string> {
  return enqueueMail(trx, {
    kind: 'receipt',
    recipient: receipt.donor_email,
    attachments: [{ type: 'receipt', id: receipt.id }],
    about: `donation:${receipt.donation_reference_id}`,
  });
}

const REASON_WORDS: Record<string, string> = {
  refunded: 'refunded',
  duplicate: 'refunded as a duplicate charge',
  fraudulent: 'reversed as fraudulent',
  error: 'reversed as recorded in error',
  disputed: 'disputed and returned by your bank',
};

/**
 * After a reversal of a donation (its row locked by the reversal): a full reversal voids its receipt and tells the
 * donor; a partial one voids it and reissues for the net amount, or only voids when what is left is under the
 * minimum. A donation without a receipt in force (not settled yet) has nothing to revise: its receipt, at
 * settlement, will be for the net amount.
 */
export async function reviseAfterReversal(
  trx: Kysely<DB>,
  donationId: string,
  reversal: { netCents: number; reason: string },
): Promise<void> {
  const words = REASON_WORDS[reversal.reason] ?? 'reversed';
  const voided = await voidAndNotify(trx, donationId, {
    reason: `${reversal.netCents === 0 ? 'reversed in full' : 'reversed in part'}: ${reversal.reason}`,
    by: 'reversal',
    notice: reversal.netCents === 0 ? words : `${words} in part`,
  });
  if (!voided || reversal.netCents === 0) return;
  const issuer = await findIssuer(trx, voided.issuer_id);
  if (reversal.netCents < issuer.minimum_cents) return;
  const reissued = await reissue(trx, voided, { amountCents: reversal.netCents, reason: 'partial reversal' });
  await queueReceiptMail(trx, reissued);
}
