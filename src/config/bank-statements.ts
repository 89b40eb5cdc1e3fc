import { Type } from '@sinclair/typebox';
import { parseDecimalToCents } from '../domain/money.js';
import { receiptPolicy, type ReceiptPolicy } from './receipts.js';
import { apiBaseUrl } from './server.js';

/** Bank statements matched to remittance entries (docs/bank-statements.md): the bounds of suggestions. */
export const BankStatementSettings = {
  BANK_MATCH_AMOUNT_TOLERANCE: Type.String({
    pattern: '^[0-9]{1,7}(\\.[0-9]{1,2})?$',
    default: '1.00',
    description:
      'AUD: a bank line and the entries it may pay can differ by this much and still be suggested (never matched ' +
      'automatically: that needs the same amount).',
  }),
  BANK_MATCH_DAYS: Type.Integer({
    minimum: 0,
    maximum: 366,
    default: 7,
    description: 'A line booked this many days before or after a batch was received may be suggested for its entries.',
  }),
  BANK_SUGGESTIONS_PER_LINE: Type.Integer({
    minimum: 1,
    maximum: 20,
    default: 3,
    description: 'One-to-one suggestions kept per unmatched line, best first.',
  }),
  RECEIPTS_AFTER: Type.Union([Type.Literal('settled'), Type.Literal('funds_received')], {
    default: 'settled',
    description:
      'When a donation may be receipted: once settled by a matched remittance entry (the partner’s word), or only ' +
      'once a bank line shows the entry’s money was received.',
  }),
};

/** What matching needs of the settings. */
export interface BankMatchingSettings {
  toleranceCents: number;
  days: number;
  perLine: number;
  timeZone: string;
  /** Where partners read a batch's report (the events' `url`). */
  apiBaseUrl: string;
  /** Receipts issued when money is received (RECEIPTS_AFTER=funds_received). */
  receipts: ReceiptPolicy;
}

export function bankMatchingSettings(
  config: Parameters<typeof apiBaseUrl>[0] &
    Parameters<typeof receiptPolicy>[0] & {
      BANK_MATCH_AMOUNT_TOLERANCE: string;
      BANK_MATCH_DAYS: number;
      BANK_SUGGESTIONS_PER_LINE: number;
      FOUNDATION_TIME_ZONE: string;
    },
): BankMatchingSettings {
  return {
    toleranceCents: parseDecimalToCents(config.BANK_MATCH_AMOUNT_TOLERANCE) ?? 0,
    days: config.BANK_MATCH_DAYS,
    perLine: config.BANK_SUGGESTIONS_PER_LINE,
    timeZone: config.FOUNDATION_TIME_ZONE,
    apiBaseUrl: apiBaseUrl(config),
    receipts: receiptPolicy(config),
  };
}
