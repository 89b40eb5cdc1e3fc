/** How the bank-details commands of `grants` show a club's details, contacts and pending changes. */
import type { ClubContact } from '../../../services/grants/club-contacts.js';
import type { EnteredDetails } from '../../../services/grants/bank-details/enter.js';
import type { ClubBankView, PendingChange, ShownDetails } from '../../../services/grants/bank-details/show.js';
import { fields, formatTime, tableOr, type Column } from '../../output.js';

/** "payable from 2026-12-11T09:00:00Z", "payable now", "never (rejected)". */
export function payableText(d: ShownDetails): string {
  if (d.status === 'rejected' || d.status === 'superseded' || !d.payableFrom) return `not payable (${d.status})`;
  const from = formatTime(d.payableFrom);
  if (d.status === 'pending') return `payable from ${from} once verified`;
  if (d.payableNow) return d.holdWaived ? 'payable now (hold waived)' : `payable now (since ${from})`;
  return `payable from ${from} (in its hold period)`;
}

export const detailsJson = (d: ShownDetails) => ({ ...d, payable: payableText(d) });

export const contactJson = (c: ClubContact) => ({ id: c.id, role: c.role, name: c.name, email: c.email });

export const contactColumns: Column<ClubContact>[] = [
  { header: 'Role', value: (c) => c.role },
  { header: 'Name', value: (c) => c.name },
  { header: 'E-mail', value: (c) => c.email },
  { header: 'Id', value: (c) => c.id },
];

const versionColumns: Column<ShownDetails>[] = [
  { header: 'Status', value: (d) => d.status },
  { header: 'BSB', value: (d) => (d.branch ? `${d.bsb} ${d.branch}` : d.bsb) },
  { header: 'Account', value: (d) => d.accountNumber },
  { header: 'Name', value: (d) => d.accountName },
  { header: 'Entered', value: (d) => `${formatTime(d.enteredAt)} by ${d.enteredBy} (${d.source})` },
  {
    header: 'Decided',
    value: (d) =>
      d.verifiedAt
        ? `verified ${formatTime(d.verifiedAt)} by ${d.verifiedBy}: ${d.confirmation}`
        : d.rejectedAt
          ? `rejected ${formatTime(d.rejectedAt)} by ${d.rejectedBy}: ${d.rejectReason}`
          : null,
  },
  { header: 'Payable', value: payableText },
];

function detailsFields(d: ShownDetails | null, none: string): string {
  if (!d) return none;
  return fields([
    ['BSB', d.branch ? `${d.bsb} (${d.branch})` : d.bsb],
    ['Account number', d.accountNumber],
    ['Account name', d.accountName],
    ['Entered', `${formatTime(d.enteredAt)} by ${d.enteredBy} (${d.source})`],
    ...(d.verifiedAt
      ? [['Verified', `${formatTime(d.verifiedAt)} by ${d.verifiedBy}: ${d.confirmation}`] as [string, string]]
      : []),
    ['Payable', payableText(d)],
  ]);
}

export function viewText(view: ClubBankView): string {
  return [
    `${view.club} (member ${view.memberNumber}); registered for GST: ${view.gstRegistered ? 'yes' : 'no'}`,
    '',
    'Current bank details (paid to):',
    detailsFields(view.current, 'None verified: grants to this club are held (no_bank_details).'),
    '',
    'Pending change:',
    detailsFields(view.pending, 'None.'),
    '',
    'Every version, newest first:',
    tableOr(view.history, versionColumns, 'No bank details entered yet.'),
    '',
    'Contacts:',
    tableOr(view.contacts, contactColumns, 'No contacts: add them with "grants club-contact-add".'),
  ].join('\n');
}

export const pendingColumns: Column<PendingChange>[] = [
  { header: 'Member', value: (p) => p.memberNumber },
  { header: 'Club', value: (p) => p.club },
  { header: 'New BSB', value: (p) => (p.pending.branch ? `${p.pending.bsb} ${p.pending.branch}` : p.pending.bsb) },
  { header: 'New account', value: (p) => `${p.pending.accountNumber} ${p.pending.accountName}` },
  { header: 'Replaces', value: (p) => (p.current ? `${p.current.bsb} ${p.current.accountNumber}` : 'nothing') },
  {
    header: 'Entered',
    value: (p) => `${formatTime(p.pending.enteredAt)} by ${p.pending.enteredBy} (${p.pending.source})`,
  },
  { header: 'Payable', value: (p) => payableText(p.pending) },
];

export function enteredText(entered: EnteredDetails, shown: ShownDetails): string {
  const told =
    entered.told.length > 0
      ? `Told of the change: ${entered.told.join(', ')}.`
      : 'The club has no contacts on file: nobody was told of the change (add them with "grants club-contact-add").';
  return [
    `New bank details for ${entered.club} (member ${entered.memberNumber}) are pending: BSB ${shown.bsb}` +
      `${shown.branch ? ` (${shown.branch})` : ''}, account ${shown.accountNumber}, ${shown.accountName}.`,
    'Another operator must verify them (grants bank-verify) after calling the club on a number on file.',
    told,
  ].join('\n');
}
