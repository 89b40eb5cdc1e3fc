import { Type, type Static } from '@sinclair/typebox';
import { REQUESTABLE_REASONS, REVERSAL_REASONS } from '../domain/reversal.js';
import { StringEnum, Text } from './common.js';

/** POST /donations/{donationReferenceId}/reversals: the whole donation or part of it went back. */
export const ReversalRequest = Type.Object(
  {
    amount: Type.String({
      format: 'amount-decimal-string',
      maxLength: 14,
      description: 'AUD taken back: the whole donation or part of it; reversals never sum to more than it.',
      examples: ['20.00'],
    }),
    reason: StringEnum(REQUESTABLE_REASONS, {
      description: 'refunded (a cancelled order), duplicate (charged twice), fraudulent, error (recorded by mistake).',
    }),
    transaction: Type.Optional(
      Type.Object({
        id: Text(100, {
          minLength: 1,
          description: 'Your id of this reversal (a refund id): a retry with it never reverses twice.',
        }),
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReversalRequest = Static<typeof ReversalRequest>;

export const ReversalRecord = Type.Object({
  reversalId: Type.String(),
  donationReferenceId: Type.String(),
  amount: Type.String({ examples: ['5.00'] }),
  reason: StringEnum(REVERSAL_REASONS),
  transactionId: Type.Union([Type.String(), Type.Null()]),
  requestedBy: StringEnum(['partner', 'foundation', 'payment provider'], {
    description: 'Who reversed it: you, the foundation, or the payment provider (a disputed debit).',
  }),
  owedBack: Type.Boolean({
    description: 'Reversed after the donation was settled: the foundation owes this money back.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type ReversalRecord = Static<typeof ReversalRecord>;
