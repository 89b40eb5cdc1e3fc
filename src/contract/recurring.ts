import { Type, type Static } from '@sinclair/typebox';
import { FREQUENCIES, PLAN_STATUSES, DEBIT_STATUSES } from '../domain/recurring.js';
import { StringEnum, Text } from './common.js';

const Amount = Type.String({
  format: 'amount-decimal-string',
  maxLength: 14,
  description: 'AUD, decimal string, > 0, at most 2 decimals.',
  examples: ['20.00'],
});
const CalendarDate = (description: string) =>
  Type.String({ format: 'date', maxLength: 10, description, examples: ['2026-12-01'] });

/** POST /recurring-donations: a plan of debits on a succeeded mandate of the calling partner. */
export const RecurringDonationRequest = Type.Object(
  {
    mandateId: Type.String({ minLength: 1, maxLength: 100, description: 'A succeeded mandate of yours.' }),
    amount: Amount,
    frequency: StringEnum(FREQUENCIES),
    startDate: CalendarDate('The first debit’s date, in the foundation’s time zone; today or later.'),
    endDate: Type.Optional(CalendarDate('No debit after this date.')),
    numberOfDebits: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'No more debits than this.' }),
    ),
    partnerReference: Type.Optional(
      Text(100, {
        minLength: 1,
        description: 'Your reference for the plan; a retry with the same reference returns the plan created first.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RecurringDonationRequest = Static<typeof RecurringDonationRequest>;

/** POST /mandates/{mandateId}/debits: one debit, for partners that schedule themselves. */
export const DebitRequest = Type.Object(
  {
    amount: Amount,
    date: Type.Optional(CalendarDate('When to collect it, in the foundation’s time zone; today when absent.')),
    transaction: Type.Object({
      id: Text(100, {
        minLength: 1,
        description: 'Your id of this debit: a retry with the same id never creates a second debit.',
      }),
    }),
  },
  { additionalProperties: false },
);
export type DebitRequest = Static<typeof DebitRequest>;

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const DebitRecord = Type.Object({
  debitId: Type.String(),
  recurringDonationId: Type.Union([Type.String(), Type.Null()], { description: 'Null for a one-off debit.' }),
  mandateId: Type.String(),
  sequence: Type.Union([Type.Integer(), Type.Null()], { description: 'Its number in the plan, from 1.' }),
  transactionId: Nullable(Type.String({ description: 'Your id of a one-off debit.' })),
  amount: Type.String({ examples: ['20.00'] }),
  dueDate: Type.String({ format: 'date' }),
  status: StringEnum(DEBIT_STATUSES, {
    description:
      'scheduled → processing (BECS debits take days) → succeeded | failed. A failed debit with nextAttemptOn is ' +
      'tried again that day.',
  }),
  attempts: Type.Integer({ description: 'Tries submitted so far.' }),
  nextAttemptOn: Nullable(Type.String({ format: 'date', description: 'The next try of a failed debit.' })),
  failure: Type.Union([
    Type.Object({
      code: Type.String({ examples: ['insufficient_funds'] }),
      message: Type.String({ examples: ['Insufficient funds in the account'] }),
    }),
    Type.Null(),
  ]),
  donationReferenceId: Nullable(Type.String({ description: 'The donation a collected debit became.' })),
  disputedAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type DebitRecord = Static<typeof DebitRecord>;

export const RecurringDonationRecord = Type.Object({
  recurringDonationId: Type.String(),
  mandateId: Type.String(),
  fundraiserId: Type.String(),
  amount: Type.String({ examples: ['20.00'] }),
  frequency: StringEnum(FREQUENCIES),
  startDate: Type.String({ format: 'date' }),
  endDate: Nullable(Type.String({ format: 'date' })),
  numberOfDebits: Type.Union([Type.Integer(), Type.Null()]),
  partnerReference: Nullable(Type.String()),
  status: StringEnum(PLAN_STATUSES, {
    description:
      'active; past_due (a debit failed after its last try; still collecting); canceled; completed (every debit made).',
  }),
  nextDebitDate: Nullable(Type.String({ format: 'date', description: 'The date of the next debit to be made.' })),
  canceledReason: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  debits: Type.Array(DebitRecord),
});
export type RecurringDonationRecord = Static<typeof RecurringDonationRecord>;

export const SandboxClockAdvance = Type.Object(
  {
    duration: Type.String({
      pattern: '^P(?!$)(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?)?$',
      maxLength: 30,
      description: 'ISO 8601 duration to move your sandbox clock forward: P1M, P14D, P1Y, PT12H.',
      examples: ['P1M'],
    }),
  },
  { additionalProperties: false },
);
