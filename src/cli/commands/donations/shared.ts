/** What the subcommands of this group share: options and how results are shown. */
import type { DonationDetail, DonationRecord } from '../../../services/operators/donations.js';
import { fields, formatAud, formatTime, tableOr, type Column } from '../../output.js';
import { reversalColumns, reversalJson } from '../reversals/shared.js';

export const donationColumns: Column<DonationRecord>[] = [
  { header: 'Reference', value: (d) => d.referenceId },
  { header: 'Received', value: (d) => d.createdAt },
  { header: 'Partner', value: (d) => d.partnerName },
  { header: 'Channel', value: (d) => d.channel },
  { header: 'Fundraiser', value: (d) => `${d.memberNumber} ${d.accountName}` },
  { header: 'AUD', value: (d) => formatAud(d.amountCents) },
  { header: 'Donor email', value: (d) => d.donorEmail },
  { header: 'Transaction id', value: (d) => d.transactionId },
];

export const donationJson = (d: DonationRecord) => ({
  ...d,
  amountCents: d.amountCents,
  amountAud: d.amountCents === null ? null : formatAud(d.amountCents),
});

/** One entry per section of the detail. */
export const detailJson = (detail: DonationDetail) => ({
  ...donationJson(detail.donation),
  settlement: detail.settlement && { ...detail.settlement, amountAud: formatAud(detail.settlement.amountCents) },
  reversals: detail.reversals.map(reversalJson),
  reversedAud: formatAud(detail.reversedCents),
  netAud: detail.donation.amountCents === null ? null : formatAud(detail.donation.amountCents - detail.reversedCents),
  owedBackAud: formatAud(detail.owedBackCents),
});

export function detailText(detail: DonationDetail): string {
  const { donation: d, settlement: s } = detail;
  const facts = fields([
    ['Reference id', d.referenceId],
    ['Received', d.createdAt],
    ['Partner', `${d.partnerName} (${d.partnerId})`],
    ['Environment', `${d.environment}${d.isLive ? ' (live)' : ' (not real: pre-production)'}`],
    ['Channel', d.channel],
    ['Fundraiser id sent', d.fundraiserId],
    ['Account', `${d.memberNumber} ${d.accountName}`],
    ['Product enrolment id', d.productEnrollmentId],
    ['Amount (AUD)', formatAud(d.amountCents)],
    ['Transaction id', d.transactionId],
    ['Transaction date', d.transactionDate],
    ['Donor', d.donorBusinessName ? `${d.donorName} for ${d.donorBusinessName}` : d.donorName],
    [
      'Donor email',
      d.donorVerifiedEmail && d.donorVerifiedEmail !== d.donorEmail
        ? `${d.donorEmail} (verified: ${d.donorVerifiedEmail})`
        : d.donorEmail,
    ],
    ['Donor mobile', d.donorMobile],
    ['Postcode', d.postalCode],
    ['Correlation id', d.correlationId],
    ['Source metadata', d.sourceMetadata],
    [
      'Settled',
      !s
        ? 'not yet (no remittance has settled it)'
        : s.by === 'debit'
          ? `${formatAud(s.amountCents)} AUD collected by debit ${s.debitId} at ${formatTime(s.settledAt)}`
          : `${formatAud(s.amountCents)} AUD by bank reference ${s.bankReferenceId} (batch ${s.batchId}, entry ${s.entryIndex}) at ${formatTime(s.settledAt)}`,
    ],
    ['Reversed (AUD)', detail.reversals.length === 0 ? 'nothing' : formatAud(detail.reversedCents)],
    ['Net amount (AUD)', d.amountCents === null ? null : formatAud(d.amountCents - detail.reversedCents)],
    ['Owed back (AUD)', detail.owedBackCents === 0 ? null : formatAud(detail.owedBackCents)],
  ]);
  if (detail.reversals.length === 0) return facts;
  return [facts, 'Reversals:', tableOr(detail.reversals, reversalColumns, '')].join('\n');
}
