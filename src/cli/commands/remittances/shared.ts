/** What the subcommands of this group share: options and how results are shown. */
import { Option } from 'commander';
import { BATCH_STATUSES, OUTCOMES } from '../../../domain/remittance-outcomes.js';
import type { BatchEntryRow } from '../../../infrastructure/repositories/batch-entries.js';
import type { BatchSummary } from '../../../services/reconciliation/operations.js';
import type { EntryReport } from '../../../services/reconciliation/remittance-report.js';
import { fields, formatAud, type Column } from '../../output.js';

export const statusOption = () =>
  new Option('--status <status>', 'only batches with this status').choices(BATCH_STATUSES);

export const outcomeOption = () =>
  new Option('--outcome <outcome>', 'only entries with this outcome').choices(OUTCOMES);

export const fromOption = [
  '--from <date>',
  'received on or after this date (YYYY-MM-DD, UTC) or ISO timestamp',
] as const;

export const toOption = [
  '--to <date>',
  'received on or before this date (whole day, UTC), or before this ISO timestamp',
] as const;

const problem = (b: BatchSummary) =>
  b.deadLetteredAt
    ? `DEAD-LETTERED: ${b.lastError ?? 'out of retries'}`
    : b.lastError && !b.completedAt
      ? `retrying: ${b.lastError}`
      : null;

export const batchColumns: Column<BatchSummary>[] = [
  { header: 'Batch', value: (b) => b.batchId },
  { header: 'Received', value: (b) => b.receivedAt },
  { header: 'Partner', value: (b) => b.partnerName },
  { header: 'Fundraiser', value: (b) => b.fundraiserId },
  { header: 'Status', value: (b) => b.status },
  { header: 'Entries', value: (b) => b.entries },
  { header: 'AUD', value: (b) => formatAud(b.totalCents) },
  { header: 'Matched', value: (b) => b.outcomeCounts.matched },
  { header: 'Exceptions', value: (b) => b.exceptions },
  { header: 'Attempts', value: (b) => b.attempts },
  { header: 'Problem', value: problem },
];

export const batchJson = (b: BatchSummary) => ({ ...b, totalAud: formatAud(b.totalCents) });

export function batchFields(b: BatchSummary, jobs: Record<string, number>): string {
  const exceptions = Object.entries(b.outcomeCounts).filter(([outcome, n]) => outcome !== 'matched' && n > 0);
  return fields([
    ['Batch', b.batchId],
    ['Partner', `${b.partnerName} (${b.partnerId}), ${b.environment}`],
    ['Channel / fundraiser', `${b.channel} / ${b.fundraiserId}`],
    ['Received', b.receivedAt],
    ['Status', b.status],
    ['Entries / total AUD', `${b.entries} / ${formatAud(b.totalCents)}`],
    ['Matched', b.outcomeCounts.matched ?? (b.completedAt ? 0 : null)],
    [
      'Exceptions',
      exceptions.length === 0 ? (b.completedAt ? 'none' : null) : exceptions.map(([o, n]) => `${o} ${n}`).join(', '),
    ],
    [
      'Started / completed',
      `${b.startedAt ? b.startedAt.toISOString() : '-'} / ${b.completedAt ? b.completedAt.toISOString() : '-'}`,
    ],
    ['Attempts', b.attempts],
    ['Last error', b.lastError ? `${b.lastError} (${b.lastErrorAt?.toISOString()})` : null],
    ['Dead-lettered', b.deadLetteredAt],
    ['Queue jobs', Object.keys(jobs).length === 0 ? null : jobs],
  ]);
}

export const entryColumns: Column<EntryReport>[] = [
  { header: '#', value: (e) => e.index },
  { header: 'Bank reference', value: (e) => e.bankReferenceId },
  { header: 'AUD', value: (e) => e.amount.toFixed(2) },
  { header: 'Donations', value: (e) => e.donationIds },
  { header: 'Outcome', value: (e) => e.outcome ?? 'pending' },
  { header: 'Detail', value: (e) => e.detail },
];

export const exceptionColumns: Column<BatchEntryRow>[] = [
  { header: 'Received', value: (e) => e.batch_created_at },
  { header: 'Partner', value: (e) => e.partner_name },
  { header: 'Batch', value: (e) => e.batch_id },
  { header: '#', value: (e) => e.position },
  { header: 'Bank reference', value: (e) => e.bank_reference_id },
  { header: 'AUD', value: (e) => formatAud(Number(e.amount_cents)) },
  { header: 'Outcome', value: (e) => e.outcome },
  { header: 'Detail', value: (e) => e.outcome_detail },
];
