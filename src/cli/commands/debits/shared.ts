/** What the subcommands of this group (and `recurring show`) share: how debits are shown. */
import type { OperatorDebit } from '../../../services/operators/recurring-debits.js';
import { formatAud, type Column } from '../../output.js';

const failure = (d: OperatorDebit) =>
  d.disputedAt ? `disputed: ${d.disputeReason ?? ''}` : d.failureCode ? (d.failureMessage ?? d.failureCode) : null;

export const debitColumns: Column<OperatorDebit>[] = [
  { header: 'Debit', value: (d) => d.id },
  { header: 'Due', value: (d) => d.dueDate },
  { header: 'Partner', value: (d) => d.partnerName },
  { header: 'Of', value: (d) => (d.planId ? `${d.planId} #${d.sequence ?? '?'}` : `one-off ${d.transactionId ?? ''}`) },
  { header: 'AUD', value: (d) => formatAud(d.amountCents) },
  { header: 'Status', value: (d) => d.status },
  { header: 'Tries', value: (d) => d.attempts },
  { header: 'Next try', value: (d) => d.nextAttemptOn },
  { header: 'Why', value: failure },
  { header: 'Donation', value: (d) => d.donationReferenceId },
];

export const debitJson = (d: OperatorDebit) => ({ ...d, amountAud: formatAud(d.amountCents) });
