/** What the subcommands of this group share: how plans are shown. */
import type { PlanDetail, PlanRow } from '../../../services/operators/recurring.js';
import { fields, formatAud, type Column } from '../../output.js';
import { debitJson } from '../debits/shared.js';

export const planColumns: Column<PlanRow>[] = [
  { header: 'Recurring donation', value: (p) => p.id },
  { header: 'Created', value: (p) => p.createdAt },
  { header: 'Partner', value: (p) => p.partnerName },
  { header: 'Fundraiser', value: (p) => `${p.fundraiserId} ${p.accountName}` },
  { header: 'AUD', value: (p) => formatAud(p.amountCents) },
  { header: 'Every', value: (p) => p.frequency },
  { header: 'Status', value: (p) => p.status },
  { header: 'Next debit', value: (p) => p.nextDueDate },
  { header: 'Mandate', value: (p) => p.mandateId },
];

export const planJson = (p: PlanRow) => ({ ...p, amountAud: formatAud(p.amountCents) });

export const detailJson = (detail: PlanDetail) => ({
  ...planJson(detail.plan),
  debits: detail.debits.map(debitJson),
});

export function planFields(p: PlanRow): string {
  const ends = [p.endDate ? `on ${p.endDate}` : null, p.maxDebits ? `after ${p.maxDebits} debits` : null];
  return fields([
    ['Recurring donation', p.id],
    ['Partner', `${p.partnerName} (${p.partnerId}), ${p.environment}${p.isLive ? ' (live)' : ''}`],
    ['Partner reference', p.partnerReference],
    ['Channel / fundraiser', `${p.channel} / ${p.fundraiserId} ${p.accountName}`],
    ['Mandate', p.mandateId],
    ['Amount (AUD)', `${formatAud(p.amountCents)} ${p.frequency}`],
    ['Starts', p.startDate],
    ['Ends', ends.filter(Boolean).join(' or ') || 'when canceled'],
    ['Status', p.status],
    ['Next debit', p.nextDueDate],
    ['Debits created', p.debitsScheduled],
    ['Failed in a row', p.failedInARow],
    ['Canceled', p.canceledAt ? `${p.canceledReason ?? ''} (${p.canceledAt.toISOString()})` : null],
    ['Created', p.createdAt],
  ]);
}
