import type { FinancialYear } from './financial-year.js';

/** A receipt series: real receipts, or the samples of pre-production environments (numbered apart). */
export type ReceiptSeries = 'live' | 'sample';

/**
 * `2026-27-000123`: the financial year, then the receipt's place in that year's series, at least six digits.
 * Samples read `SAMPLE-2026-27-000123`, so no one mistakes one for a receipt. The bulk issue writes the same form in
 * SQL (infrastructure/repositories/receipt-issue.ts).
 */
export function receiptNumber(series: ReceiptSeries, year: FinancialYear, sequence: number): string {
  return `${series === 'sample' ? 'SAMPLE-' : ''}${year}-${String(sequence).padStart(6, '0')}`;
}

export const RECEIPT_NUMBER_PATTERN = /^(SAMPLE-)?\d{4}-\d{2}-\d{6,}$/;
