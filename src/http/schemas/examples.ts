import { succeededMandateExample } from '../../contract/mandate.js';

/**
 * Examples of the bodies of the webhook, event-log and remittance-report operations, for the OpenAPI document.
 * `npm run lint:openapi` checks each against its schema (no-invalid-media-type-examples), so they cannot drift.
 */

const AT = '2026-11-21T10:46:13.131Z';
const ENDPOINT_ID = '8c1f0d6e-2a4b-4c3d-9e5f-6a7b8c9d0e1f';
const BATCH_ID = 'f175802b-7630-42cd-bfca-aa3cbe629b01';
const EVENT_ID = 'evt_01JD7Q3ZK8M2N4P6R8T0V2X4Y6';

export const endpointExample = {
  id: ENDPOINT_ID,
  url: 'https://partner.example.com/webhooks/fundraiser',
  events: ['*'],
  status: 'enabled',
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: AT,
};

export const endpointWithSecretExample = { ...endpointExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };

export const deliveryExample = {
  id: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e',
  eventId: EVENT_ID,
  eventType: 'mandate.updated',
  endpointId: ENDPOINT_ID,
  status: 'delivered',
  attempts: 2,
  nextAttemptAt: null,
  failureReason: null,
  replayOf: null,
  createdAt: AT,
  finishedAt: '2026-11-21T10:46:19.402Z',
  attemptLog: [
    {
      attempt: 1,
      attemptedAt: AT,
      responseStatus: 503,
      latencyMs: 212,
      responseSnippet: 'Service Unavailable',
      error: null,
    },
    {
      attempt: 2,
      attemptedAt: '2026-11-21T10:46:19.402Z',
      responseStatus: 204,
      latencyMs: 87,
      responseSnippet: null,
      error: null,
    },
  ],
};

export const testEventExample = { eventId: EVENT_ID, deliveryId: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e' };

export const eventPageExample = {
  events: [{ id: EVENT_ID, type: 'mandate.updated', timestamp: AT, sequence: 42, data: succeededMandateExample }],
  hasMore: false,
};

const byOutcome = (matched: number, mismatch: number) => ({
  matched,
  amount_mismatch: mismatch,
  unknown_donation: 0,
  foreign_donation: 0,
  already_settled: 0,
  reversed_donation: 0,
  duplicate_bank_reference: 0,
});

const batchSummaryExample = {
  batchId: BATCH_ID,
  status: 'completed_with_exceptions',
  channel: 'Storefront App',
  fundraiserId: '10000001',
  totalAmount: 45.5,
  receivedAt: AT,
  startedAt: '2026-11-21T10:46:13.402Z',
  completedAt: '2026-11-21T10:46:13.877Z',
  counts: { entries: 2, pending: 0, matched: 1, exceptions: 1, byOutcome: byOutcome(1, 1) },
  progress: { entriesDone: 2, entriesTotal: 2 },
};

export const batchListExample = { batches: [batchSummaryExample], nextCursor: null };

export const batchReportExample = {
  ...batchSummaryExample,
  reversedAmount: 0,
  owedBack: 0,
  entries: [
    {
      index: 0,
      bankReferenceId: 'B1',
      amount: 25.5,
      donationIds: ['DON-023Z4EWC5XSNVJWQ'],
      outcome: 'matched',
      detail: null,
      fundsReceived: true,
      fundsReceivedAt: '2026-11-24T03:12:00.000Z',
    },
    {
      index: 1,
      bankReferenceId: 'B2',
      amount: 20,
      donationIds: ['DON-0D5WARNCDNWHQRHK'],
      outcome: 'amount_mismatch',
      detail: 'Entry 20.00 AUD, donations 20.50 AUD.',
      fundsReceived: false,
      fundsReceivedAt: null,
    },
  ],
  nextCursor: null,
};
