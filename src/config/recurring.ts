import { Type } from '@sinclair/typebox';

/** Recurring donations and debits (docs/recurring.md): the retry policy and how often due debits are looked for. */
export const RecurringSettings = {
  RECURRING_RETRY_DELAYS_DAYS: Type.String({
    pattern: '^\\s*(\\d{1,3}(\\s*,\\s*\\d{1,3})*)?\\s*$',
    default: '3,7',
    description:
      'Days after a failed debit that it is tried again, comma-separated: one more try per entry ("" for none). ' +
      'A debit the bank refused for good (account closed, mandate revoked) is not retried.',
  }),
  RECURRING_CANCEL_AFTER_FAILED_DEBITS: Type.Integer({
    minimum: 1,
    maximum: 12,
    default: 2,
    description:
      'A plan whose debits failed after their last try this many times in a row is canceled; after the first ' +
      'such debit it is past_due (and goes on collecting).',
  }),
  RECURRING_SCAN_INTERVAL_SECONDS: Type.Integer({
    minimum: 5,
    default: 300,
    description: 'How often one instance looks for plans with a debit due and failed debits due for another try.',
  }),
  DEBIT_COLLECTION_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 4,
    description: 'Debits one instance submits to the payment provider at once.',
  }),
};

/** The retry policy of failed debits: the delay before each further try, in days. */
export function retryDelaysDays(config: { RECURRING_RETRY_DELAYS_DAYS: string }): number[] {
  return config.RECURRING_RETRY_DELAYS_DAYS.split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(Number);
}
