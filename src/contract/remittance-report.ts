import { Type } from '@sinclair/typebox';
import { BATCH_STATUSES, OUTCOMES } from '../domain/remittance-outcomes.js';
import { RequiredText } from './common.js';

/** Schemas of the remittance reports (GET /remittances/{batchId} and GET /remittances). */

/** A string enum (one `enum` keyword, so a bad value gets one cause listing the choices). */
export const StringEnum = <T extends string>(values: readonly T[], options: object = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

const Outcome = Type.Union([StringEnum(OUTCOMES), Type.Null()], {
  description: 'Null until the entry is reconciled. See the reconciliation rules in the README.',
});

const EntryReport = Type.Object({
  index: Type.Integer({ description: 'Index of the entry in the posted `remittances` array.' }),
  bankReferenceId: Type.String(),
  amount: Type.Number({ description: 'AUD.' }),
  donationIds: Type.Array(Type.String()),
  outcome: Outcome,
  detail: Type.Union([Type.String(), Type.Null()], { description: 'Why, in words: which donations, which amounts.' }),
  fundsReceived: Type.Boolean({
    description: 'Whether a line of the foundation’s bank statement was matched to this entry: its money arrived.',
  }),
  fundsReceivedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When that match was made; null while the money is not received.',
  }),
});

const Counts = Type.Object(
  {
    entries: Type.Integer({ description: 'Every entry of the batch (= pending + the sum of byOutcome).' }),
    pending: Type.Integer({ description: 'Entries not reconciled yet (outcome null).' }),
    matched: Type.Integer(),
    exceptions: Type.Integer({ description: 'Entries with any outcome other than matched.' }),
    byOutcome: Type.Object(Object.fromEntries(OUTCOMES.map((o) => [o, Type.Integer()]))),
  },
  { description: 'Always the whole batch, whatever page or filter was asked for.' },
);

export const BatchSummary = Type.Object({
  batchId: Type.String(),
  status: StringEnum(BATCH_STATUSES),
  channel: Type.String(),
  fundraiserId: Type.String(),
  totalAmount: Type.Number({ description: 'Sum of the entries, AUD.' }),
  receivedAt: Type.String({ format: 'date-time', description: 'When the batch was stored (the 202).' }),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When reconciliation first began (kept if it is retried).',
  }),
  completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the final write of the reconciliation committed; set exactly when pending is 0.',
  }),
  counts: Counts,
  progress: Type.Object(
    { entriesDone: Type.Integer(), entriesTotal: Type.Integer() },
    { description: 'Entries reconciled of the total, for a partner polling a running batch (from the same snapshot).' },
  ),
});

export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'Opaque: pass it as `cursor` (with the same other parameters) for the next page. Null on the last page.',
});

/** What reversals (docs/reversals.md) took back of the donations a batch settled: an extension, new fields only. */
const BatchReversals = Type.Object({
  reversedAmount: Type.Number({
    description:
      'AUD taken back by reversals of the donations this batch settled, whether made before their settlement (the ' +
      'entry then carried the net amount) or after it.',
  }),
  owedBack: Type.Number({
    description: 'Of reversedAmount, AUD reversed after settlement and not yet repaid: what the foundation owes back.',
  }),
});

export const BatchReport = Type.Composite([
  BatchSummary,
  BatchReversals,
  Type.Object({
    entries: Type.Array(EntryReport, { description: 'This page of the entries that pass `outcome`, in index order.' }),
    nextCursor: NextCursor,
  }),
]);

export const Limit = (max: number, byDefault: number, what: string) =>
  Type.Integer({
    minimum: 1,
    maximum: max,
    default: byDefault,
    description: `${what} per page (1–${max}).`,
    examples: [byDefault],
  });

export const Cursor = RequiredText(1000, {
  description: '`nextCursor` of the previous page, with the same other parameters.',
  examples: [
    'eyJzIjp7ImJhdGNoSWQiOiJmMTc1ODAyYi03NjMwLTQyY2QtYmZjYS1hYTNjYmU2MjliMDEiLCJvdXRjb21lIjoiZXhjZXB0aW9ucyJ9LCJwIjp7ImFmdGVyIjo5OTl9fQ.2Hq5n8yXoR8bLh7G3m0c1w',
  ],
});
