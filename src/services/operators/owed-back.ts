import { formatCents } from '../../domain/money.js';
import {
  listReversalRows,
  owedTotals,
  type OwedTotal,
  type ReversalRow,
} from '../../infrastructure/repositories/reversal-admin.js';
import { csvText } from '../reconciliation/csv-text.js';
import { neutraliseCell } from '../reconciliation/remittance-csv.js';
import type { OperatorContext } from './context.js';
import { requirePartner } from './partners.js';

/**
 * Money owed back, for finance (docs/reversals.md, "Operators"): reversals made after their donation was settled and
 * not yet marked repaid, oldest first, with their age and the totals per partner. The CLI's `reversals owed` and
 * `reversals export --owed`, and the console's "Owed back" page, read it here.
 */
export type { OwedTotal };

export interface OwedReversal extends ReversalRow {
  /** Whole days since the reversal, by the operator's clock. */
  ageDays: number;
}

export interface OwedBack {
  /** Oldest first, at most the limit asked for. */
  reversals: OwedReversal[];
  /** Per partner and environment, over everything owed whatever the limit. */
  totals: OwedTotal[];
  count: number;
  totalCents: number;
}

const DAY_MS = 86_400_000;

export async function listOwedBack(
  ctx: OperatorContext,
  query: { partner?: string; limit: number },
): Promise<OwedBack> {
  const partnerId = query.partner ? (await requirePartner(ctx, query.partner)).id : undefined;
  const [rows, totals] = await Promise.all([
    listReversalRows(ctx.db, { owed: true, partnerId, limit: query.limit }),
    owedTotals(ctx.db, { partnerId }),
  ]);
  const now = ctx.now().getTime();
  return {
    reversals: rows.map((row) => ({
      ...row,
      ageDays: Math.max(0, Math.floor((now - row.createdAt.getTime()) / DAY_MS)),
    })),
    totals,
    count: totals.reduce((n, t) => n + t.count, 0),
    totalCents: totals.reduce((n, t) => n + t.totalCents, 0),
  };
}

const OWED_CSV_COLUMNS = [
  'reversalId',
  'reversedAt',
  'ageDays',
  'partner',
  'environment',
  'donationReferenceId',
  'fundraiserId',
  'fundraiserName',
  'amountAud',
  'reason',
  'requestedBy',
  'note',
] as const;

/**
 * The list as a CSV file, written as the partner's remittance file is (docs/reconciliation.md, "CSV"): RFC 4180
 * with CRLF line ends and quoting, amounts with two decimals, and a cell a spreadsheet would run as a formula (a
 * note is free text) neutralised with a leading apostrophe.
 */
export function owedBackCsv(owed: OwedBack): string {
  const records = owed.reversals.map((r) =>
    [
      r.reversalId,
      r.createdAt.toISOString(),
      String(r.ageDays),
      r.partnerName,
      r.environment,
      r.donationReferenceId,
      r.fundraiserId,
      r.accountName,
      formatCents(r.amountCents),
      r.reason,
      r.requestedBy,
      r.note ?? '',
    ].map(neutraliseCell),
  );
  return csvText(records, { record_delimiter: 'windows', header: true, columns: [...OWED_CSV_COLUMNS] });
}
