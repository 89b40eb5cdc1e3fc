/** What the subcommands of this group share: how a receipt of the register is shown. */
import type { ReceiptDetail, ReceiptView } from '../../../services/operators/receipts.js';
import { fields, formatAud, tableOr, type Column } from '../../output.js';

export const receiptJson = (r: ReceiptView) => ({ ...r, amountAud: formatAud(r.amountCents) });

export const receiptColumns: Column<ReceiptView>[] = [
  { header: 'Receipt', value: (r) => r.number },
  { header: 'Status', value: (r) => r.status },
  { header: 'Issued', value: (r) => r.issuedAt },
  { header: 'AUD', value: (r) => formatAud(r.amountCents) },
  { header: 'Gift date', value: (r) => r.giftDate },
  { header: 'Donation', value: (r) => r.donationReferenceId },
  { header: 'Made out to', value: (r) => r.donorBusinessName ?? r.donorName },
];

export function receiptText(detail: ReceiptDetail): string {
  const r = detail.receipt;
  return [
    fields([
      ['Receipt', r.number],
      ['Status', r.voidedAt ? `void since ${r.voidedAt} (${r.voidReason ?? '?'}, by ${r.voidedBy ?? '?'})` : r.status],
      ['Series', r.series],
      ['Financial year', r.financialYear],
      ['Issued', `${r.issuedAt} (${r.issueReason})`],
      ['Replaces', r.replacesNumber],
      ['Donation', r.donationReferenceId],
      ['Amount (AUD)', formatAud(r.amountCents)],
      ['Gift date', r.giftDate],
      ['Donor', r.donorName],
      ['Business', r.donorBusinessName],
      ['E-mail', r.donorEmail],
      ['Fundraiser', `${r.fundraiserName} (${r.fundraiserId})`],
    ]),
    tableOr(
      detail.messages,
      [
        { header: 'Message', value: (m) => m.kind },
        { header: 'Written', value: (m) => m.createdAt },
        { header: 'Status', value: (m) => m.status },
        { header: 'Attempts', value: (m) => m.attempts },
        { header: 'Why not sent', value: (m) => m.lastError },
      ],
      'No message about this donation.',
    ),
  ].join('\n');
}
