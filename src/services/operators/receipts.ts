import { RECEIPT_NUMBER_PATTERN } from '../../domain/receipt-number.js';
import type { ReceiptRow } from '../../infrastructure/db/schema-receipts.js';
import { messagesAbout } from '../../infrastructure/repositories/mail-outbox.js';
import {
  receiptByNumber,
  receiptNumberOf,
  receiptsOfDonation,
  receiptsOfEmail,
} from '../../infrastructure/repositories/receipts.js';
import { attachmentOf } from '../receipts/content.js';
import { queueReceiptMail, voidAndNotify } from '../receipts/revise.js';
import type { MailAttachment } from '../mail/outbox.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { ConflictError, InvalidInputError, NotFoundError } from './operator-errors.js';

/**
 * The receipts register for operators (docs/receipts.md, "Operators"): find, view, download, resend and void. The
 * CLI's `receipts` commands and the console's receipts pages call these. A receipt holds a donor's name and address,
 * so every reading of one is audited like a change: who looked, at which receipts (their numbers, never the donor).
 */

/** One receipt of the register as operators see it. */
export interface ReceiptView {
  id: string;
  number: string;
  series: 'live' | 'sample';
  financialYear: string;
  status: 'in force' | 'void';
  amountCents: number;
  giftDate: string;
  issuedAt: string;
  issueReason: string;
  replacesNumber: string | null;
  donationReferenceId: string;
  donorName: string;
  donorBusinessName: string | null;
  donorEmail: string;
  fundraiserId: string;
  fundraiserName: string;
  voidedAt: string | null;
  voidReason: string | null;
  voidedBy: string | null;
}

/** A receipt with the messages sent (or waiting) about its donation: receipts, void notices. */
export interface ReceiptDetail {
  receipt: ReceiptView;
  messages: { kind: string; status: string; attempts: number; lastError: string | null; createdAt: string }[];
}

export interface ReceiptSearch {
  number?: string;
  donation?: string;
  email?: string;
  limit: number;
}

/** One search box (the console's): an address is a donor's e-mail, a receipt number is one, anything else a donation. */
export function searchOf(text: string, limit: number): ReceiptSearch {
  const value = text.trim();
  if (value.includes('@')) return { email: value, limit };
  if (RECEIPT_NUMBER_PATTERN.test(value)) return { number: value, limit };
  return { donation: value, limit };
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export async function toView(ctx: OperatorContext, row: ReceiptRow): Promise<ReceiptView> {
  return {
    id: row.id,
    number: row.number,
    series: row.series,
    financialYear: row.financial_year,
    status: row.voided_at === null ? 'in force' : 'void',
    amountCents: Number(row.amount_cents),
    giftDate: row.gift_date,
    issuedAt: iso(row.issued_at)!,
    issueReason: row.issue_reason,
    replacesNumber: await receiptNumberOf(ctx.db, row.replaces_id),
    donationReferenceId: row.donation_reference_id,
    donorName: row.donor_name,
    donorBusinessName: row.donor_business_name,
    donorEmail: row.donor_email,
    fundraiserId: row.fundraiser_id,
    fundraiserName: row.fundraiser_name,
    voidedAt: iso(row.voided_at),
    voidReason: row.void_reason,
    voidedBy: row.voided_by,
  };
}

/** Receipts by number, donation reference or donor e-mail (exactly one of them); the search is audited. */
export async function findReceipts(ctx: OperatorContext, search: ReceiptSearch): Promise<ReceiptView[]> {
  const given = (['number', 'donation', 'email'] as const).filter((k) => search[k]?.trim());
  if (given.length !== 1)
    throw new InvalidInputError('Find receipts by one of: a receipt number, a donation reference id, a donor e-mail.');
  const by = given[0]!;
  const value = search[by]!.trim();
  let rows: ReceiptRow[];
  if (by === 'number') rows = [await receiptByNumber(ctx.db, value)].filter((r): r is ReceiptRow => r !== undefined);
  else if (by === 'donation') rows = await receiptsOfDonation(ctx.db, value);
  else rows = await receiptsOfEmail(ctx.db, value, search.limit);
  const views = await Promise.all(rows.slice(0, search.limit).map((row) => toView(ctx, row)));
  await audit(ctx, AuditActions.receiptView, by === 'email' ? null : value, {
    by,
    numbers: views.map((v) => v.number),
  });
  return views;
}

export async function requireReceipt(ctx: OperatorContext, number: string): Promise<ReceiptRow> {
  const row = await receiptByNumber(ctx.db, number.trim());
  if (!row) throw new NotFoundError(`No receipt numbered ${JSON.stringify(number)} (see "receipts find").`);
  return row;
}

/** One receipt and the messages about its donation; the view is audited. */
export async function showReceipt(ctx: OperatorContext, number: string): Promise<ReceiptDetail> {
  const row = await requireReceipt(ctx, number);
  const messages = await messagesAbout(ctx.db, `donation:${row.donation_reference_id}`);
  await audit(ctx, AuditActions.receiptView, row.number, { donationReferenceId: row.donation_reference_id });
  return {
    receipt: await toView(ctx, row),
    messages: messages.map((m) => ({
      kind: m.kind,
      status: m.status,
      attempts: m.attempts,
      lastError: m.last_error,
      createdAt: iso(m.created_at)!,
    })),
  };
}

/** The receipt's PDF as the donor gets it (rendered from its register row); the download is audited. */
export async function receiptPdfOf(ctx: OperatorContext, number: string): Promise<MailAttachment> {
  const row = await requireReceipt(ctx, number);
  const pdf = await attachmentOf(ctx.db, { type: 'receipt', id: row.id });
  await audit(ctx, AuditActions.receiptDownload, row.number, { donationReferenceId: row.donation_reference_id });
  return pdf;
}

/**
 * Sends a receipt in force to its donor again (a new message in the outbox; outside production it goes where every
 * message goes there: the QA inbox, or nowhere). A void receipt is not resent: its donor was told it is void.
 */
export async function resendReceipt(ctx: OperatorContext, number: string): Promise<ReceiptView> {
  return inTransaction(ctx, async (tx) => {
    const row = await requireReceipt(tx, number);
    if (row.voided_at !== null)
      throw new ConflictError(`Receipt ${row.number} is void: it is not sent again (its donor was told).`);
    await queueReceiptMail(tx.db, row);
    await audit(tx, AuditActions.receiptResend, row.number, { donationReferenceId: row.donation_reference_id });
    return toView(tx, row);
  });
}

const MAX_REASON = 500;

/**
 * Voids a receipt in force for a reason (audited, kept on the register row) and tells its donor. Nothing is issued
 * in its place: a settled donation whose receipt an operator voided stays without one (docs/receipts.md).
 */
export async function voidByOperator(ctx: OperatorContext, number: string, reason: string): Promise<ReceiptView> {
  const why = reason.trim();
  if (why === '') throw new InvalidInputError('Say why the receipt is void (--reason): it is audited and kept.');
  if (why.length > MAX_REASON || /\p{Cc}/u.test(why))
    throw new InvalidInputError(`The reason must be one line of at most ${MAX_REASON} characters.`);
  return inTransaction(ctx, async (tx) => {
    const row = await requireReceipt(tx, number);
    if (row.voided_at !== null)
      throw new ConflictError(`Receipt ${row.number} was already voided by ${row.voided_by ?? 'someone'}.`);
    const voided = await voidAndNotify(tx.db, row.donation_id, {
      reason: why,
      by: tx.operator,
      notice: 'found to have been receipted in error',
    });
    // Another receipt of the donation is in force: this one was voided meanwhile (the void rolls back).
    if (voided?.id !== row.id) throw new ConflictError(`Receipt ${row.number} is no longer in force.`);
    await audit(tx, AuditActions.receiptVoid, row.number, {
      donationReferenceId: row.donation_reference_id,
      reason: why,
    });
    return toView(tx, voided);
  });
}
