import { formatCents } from '../../domain/money.js';
import type { BatchEntryRow } from '../../infrastructure/repositories/batch-entries.js';
import { csvText } from './csv-text.js';

/** Remittance entries as exported by the CLI (`remittances export`) and the console: the same fields, both ways. */

/**
 * One exported entry; the same fields in CSV (donation ids separated by spaces) and JSON. `reversedAud` is what
 * reversals took back of its donations, before or after settlement (docs/reversals.md).
 */
export function exportedEntry(e: BatchEntryRow) {
  return {
    batchId: e.batch_id,
    receivedAt: new Date(e.batch_created_at).toISOString(),
    partner: e.partner_name,
    environment: e.environment,
    fundraiserId: e.fundraiser_id,
    batchStatus: e.batch_status,
    index: e.position,
    bankReferenceId: e.bank_reference_id,
    amountAud: formatCents(Number(e.amount_cents)),
    donationIds: e.donation_ids,
    outcome: e.outcome,
    detail: e.outcome_detail,
    reversedAud: formatCents(Number(e.reversed_cents)),
  };
}

export function entriesCsv(rows: BatchEntryRow[]): string {
  const records = rows.map((row) => {
    const e = exportedEntry(row);
    return { ...e, donationIds: e.donationIds.join(' ') };
  });
  const columns = [
    'batchId',
    'receivedAt',
    'partner',
    'environment',
    'fundraiserId',
    'batchStatus',
    'index',
    'bankReferenceId',
    'amountAud',
    'donationIds',
    'outcome',
    'detail',
    'reversedAud',
  ];
  return csvText(records, { header: true, columns });
}
