import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { OUTCOMES } from '../domain/remittance-outcomes.js';
import { ALL_EVENTS } from '../domain/webhooks.js';
import { RequiredText } from './common.js';
import { MandateRecord } from './mandate.js';
import { DebitRecord, RecurringDonationRecord } from './recurring.js';
import { ReversalRecord } from './reversals.js';

const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** Types an endpoint can subscribe to; `webhook.test` is only sent on request (POST …/test). */
const SubscribableEvent = Type.Union(
  [
    Type.Literal(ALL_EVENTS),
    Type.Literal('mandate.updated'),
    Type.Literal('remittance.completed'),
    Type.Literal('remittance.funds_received'),
    Type.Literal('recurring_donation.debit_succeeded'),
    Type.Literal('recurring_donation.debit_failed'),
    Type.Literal('recurring_donation.canceled'),
    Type.Literal('donation.reversed'),
    Type.Literal('donor.erased'),
  ],
  { description: 'An event type, or `*` for every type (present and future).' },
);

export const EndpointRequest = Type.Object({
  url: RequiredText(2000, {
    description:
      'Where events are POSTed. In production: https, and a host whose every address is public. In the sandbox http://127.0.0.1 and http://localhost are allowed too.',
    examples: ['https://partner.example.com/webhooks/fundraiser'],
  }),
  events: Type.Array(SubscribableEvent, { minItems: 1, maxItems: 10, examples: [['*']] }),
});

export type EndpointRequest = Static<typeof EndpointRequest>;

export const EndpointRecord = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabledReason: Nullable(Type.String({ description: 'Why it was disabled (automatically, or by an operator).' })),
  disabledAt: Nullable(DateTime),
  failingSince: Nullable(
    Type.String({ format: 'date-time', description: 'First failed attempt since the last success.' }),
  ),
  previousSecretExpiresAt: Nullable(
    Type.String({ format: 'date-time', description: 'Until then, after a rotation, the previous secret signs too.' }),
  ),
  createdAt: DateTime,
});

export const EndpointWithSecret = Type.Composite([
  EndpointRecord,
  Type.Object({
    secret: Type.String({
      description: 'The signing secret (Standard Webhooks, `whsec_…`). Shown only in this answer: keep it.',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
  }),
]);

const AttemptRecord = Type.Object({
  attempt: Type.Integer(),
  attemptedAt: DateTime,
  responseStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'Null when no answer came.' }),
  latencyMs: Type.Integer(),
  responseSnippet: Nullable(Type.String({ description: 'The first 512 bytes of the answer.' })),
  error: Nullable(Type.String({ description: 'Why there was no answer: timeout, refused address, connection error.' })),
});

export const DeliveryRecord = Type.Object({
  id: Type.String({ format: 'uuid' }),
  eventId: Type.String(),
  eventType: Type.String(),
  endpointId: Type.String({ format: 'uuid' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(DateTime),
  failureReason: Nullable(Type.String()),
  replayOf: Nullable(Type.String({ description: 'The delivery an operator replayed.' })),
  createdAt: DateTime,
  finishedAt: Nullable(DateTime),
  attemptLog: Type.Array(AttemptRecord),
});

const amounts = Type.Number({ description: 'AUD.' });
const byOutcome = <T extends TSchema>(item: T) => Type.Object(Object.fromEntries(OUTCOMES.map((o) => [o, item])));

export const RemittanceCompletedData = Type.Object({
  batchId: Type.String({ format: 'uuid' }),
  status: Type.Union([Type.Literal('completed'), Type.Literal('completed_with_exceptions')]),
  channel: Type.String(),
  fundraiserId: Type.String(),
  receivedAt: DateTime,
  completedAt: DateTime,
  counts: Type.Object({
    entries: Type.Integer(),
    matched: Type.Integer(),
    exceptions: Type.Integer(),
    byOutcome: byOutcome(Type.Integer()),
  }),
  amounts: Type.Object({ total: amounts, matched: amounts, exceptions: amounts, byOutcome: byOutcome(amounts) }),
  url: Type.String({ description: 'GET it for the outcome of every entry.' }),
});

/** Entries of a batch whose money a bank line was found to pay (or, after an operator's correction, no longer). */
export const FundsReceivedData = Type.Object({
  batchId: Type.String({ format: 'uuid' }),
  entries: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'Index of the entry in the posted `remittances` array.' }),
      bankReferenceId: Type.String(),
      amount: Type.Number({ description: 'AUD.' }),
      fundsReceived: Type.Boolean({ description: 'False when an operator undid the match that received it.' }),
      fundsReceivedAt: Nullable(DateTime),
    }),
    { description: 'The entries whose state changed, at most 1,000 per event (more come in further events).' },
  ),
  url: Type.String({ description: 'GET it for every entry with its `fundsReceived`.' }),
});

export const WebhookTestData = Type.Object({ endpointId: Type.String({ format: 'uuid' }), message: Type.String() });

/** An event as GET /events lists it and as the body of its webhook. */
export function EventOf(type: string, data: ReturnType<typeof Type.Object>, description?: string) {
  return Type.Object(
    {
      id: Type.String({ description: 'Also the `webhook-id` header: the same on every retry and replay.' }),
      type: Type.Literal(type),
      timestamp: Type.String({ format: 'date-time', description: 'When the event happened.' }),
      sequence: Type.Integer({ description: 'Per partner, increasing: order events by it, not by arrival.' }),
      data,
    },
    description ? { description } : {},
  );
}

/** What a debit event says: the debit as GET /recurring-donations/{id} lists it, and its plan's status. */
export const DebitEventData = Type.Object({
  debit: DebitRecord,
  recurringDonationStatus: Type.Union([Type.String(), Type.Null()], {
    description: 'The plan’s status after this debit (null for a one-off debit).',
  }),
});

/** A canceled plan: as GET /recurring-donations/{id} shows it, with `canceledReason`. */
export const RecurringCanceledData = Type.Object({ recurringDonation: RecurringDonationRecord });

/** A reversal of a donation, and what is left of it. */
export const DonationReversedData = Type.Object({
  reversal: ReversalRecord,
  netAmount: Type.String({ description: 'The donation’s amount after every reversal so far.', examples: ['15.00'] }),
});

/** A person's details erased at their request: the references of what no longer names them, nothing else. */
export const DonorErasedData = Type.Object({
  erasureId: Type.String({ format: 'uuid', description: 'The erasure, the same in every partner’s event.' }),
  donationReferenceIds: Type.Array(Type.String(), {
    description: 'Your donations whose donor’s details the foundation erased: erase them on your side too.',
  }),
  mandateIds: Type.Array(Type.String(), { description: 'Your mandates whose person’s details were erased.' }),
});

export const EventRecord = Type.Union([
  EventOf('mandate.updated', MandateRecord),
  EventOf('remittance.completed', RemittanceCompletedData),
  EventOf('remittance.funds_received', FundsReceivedData),
  EventOf('recurring_donation.debit_succeeded', DebitEventData),
  EventOf('recurring_donation.debit_failed', DebitEventData),
  EventOf('recurring_donation.canceled', RecurringCanceledData),
  EventOf('donation.reversed', DonationReversedData),
  EventOf('donor.erased', DonorErasedData),
  EventOf('webhook.test', WebhookTestData),
]);
