/** What the subcommands of this group (and `donations show`, `donations reverse`) share: how reversals are shown. */
import { owedBackState, type ReversalRow } from '../../../services/operators/reversals.js';
import type { OwedReversal } from '../../../services/operators/owed-back.js';
import { formatAud, type Column } from '../../output.js';

export const reversalJson = (r: ReversalRow) => ({ ...r, amountAud: formatAud(r.amountCents) });

export const reversalColumns: Column<ReversalRow>[] = [
  { header: 'Reversal', value: (r) => r.reversalId },
  { header: 'Reversed', value: (r) => r.createdAt },
  { header: 'AUD', value: (r) => formatAud(r.amountCents) },
  { header: 'Reason', value: (r) => r.reason },
  { header: 'Asked by', value: (r) => r.requestedBy },
  { header: 'Owed back', value: owedBackState },
  { header: 'Note', value: (r) => r.note },
];

export const owedColumns: Column<OwedReversal>[] = [
  { header: 'Reversal', value: (r) => r.reversalId },
  { header: 'Age (days)', value: (r) => r.ageDays },
  { header: 'Partner', value: (r) => `${r.partnerName} (${r.environment})` },
  { header: 'Donation', value: (r) => r.donationReferenceId },
  { header: 'Fundraiser', value: (r) => `${r.fundraiserId} ${r.accountName}` },
  { header: 'AUD', value: (r) => formatAud(r.amountCents) },
  { header: 'Reason', value: (r) => r.reason },
  { header: 'Asked by', value: (r) => r.requestedBy },
];
