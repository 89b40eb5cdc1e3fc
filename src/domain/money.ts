/**
 * Money is integer cents inside the service. Partners send decimal strings (`transaction.amount`) or JSON numbers
 * (remittance `amount`); both are parsed digit by digit, never through float arithmetic.
 */
const DECIMAL = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/** Cents for a decimal string with at most two decimals ("20", "20.5", "20.55"), or null when it is not one. */
export function parseDecimalToCents(value: string): number | null {
  const match = DECIMAL.exec(value);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  return whole * 100 + fraction;
}

/**
 * Cents for a JSON number with at most two decimals. JavaScript prints a number in the shortest form that reads
 * back to the same double (20.1 → "20.1"), so that string is exactly what the partner wrote.
 */
export function numberToCents(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  return parseDecimalToCents(String(value));
}

export const isPositiveAmountString = (value: string): boolean => (parseDecimalToCents(value) ?? 0) > 0;
export const isPositiveAmountNumber = (value: number): boolean => (numberToCents(value) ?? 0) > 0;

/** Cents as AUD for display ("20.50" style numbers in JSON are written as 20.5). */
export const centsToAmount = (cents: number): number => cents / 100;

/** Sums cents exactly (integers well below 2^53). */
export const sumCents = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

/** Cents as a decimal string with two decimals ("20.50"), by integer arithmetic: CSV files and listings. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
