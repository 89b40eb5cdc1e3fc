import { formatCents } from '../../domain/money.js';

/** AUD with two decimals, or a dash when unknown. */
export const aud = (cents: number | null | undefined) =>
  cents === null || cents === undefined ? '–' : formatCents(cents);
