import type { SwaggerOptions } from '@fastify/swagger';
import type { TSchema } from '@sinclair/typebox';
import { MandateRecord } from '../../contract/mandate.js';
import {
  DebitEventData,
  DonationReversedData,
  DonorErasedData,
  EventOf,
  FundsReceivedData,
  RecurringCanceledData,
  RemittanceCompletedData,
  WebhookTestData,
} from '../../contract/webhooks.js';

const signatureHeaders = [
  {
    name: 'webhook-id',
    in: 'header' as const,
    required: true,
    description: 'The event id: the same on every retry and replay. Deduplicate on it.',
    schema: { type: 'string', examples: ['evt_01JD3YQ6W8F7T2VXKZ9M4N5P6R'] },
  },
  {
    name: 'webhook-timestamp',
    in: 'header' as const,
    required: true,
    description: 'Unix seconds of this attempt. Refuse messages more than 5 minutes old or ahead.',
    schema: { type: 'string', examples: ['1732350000'] },
  },
  {
    name: 'webhook-signature',
    in: 'header' as const,
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}` (Standard Webhooks); two during a secret rotation. Accept if any matches.',
    schema: { type: 'string' },
  },
];

function webhook(operationId: string, summary: string, description: string, schema: TSchema) {
  return {
    post: {
      operationId,
      summary,
      description,
      tags: ['webhooks'],
      parameters: signatureHeaders,
      requestBody: { required: true, content: { 'application/json': { schema } } },
      responses: {
        '2XX': { description: 'Delivered. Anything else (or no answer within the timeout) is retried.' },
      },
    },
  };
}

type OpenApiDocument = NonNullable<Extract<SwaggerOptions, { openapi?: unknown }>['openapi']>;
type OpenApiWebhooks = NonNullable<Extract<OpenApiDocument, { webhooks?: unknown }>['webhooks']>;

/**
 * The OpenAPI 3.1 `webhooks`: what the service POSTs to partners' endpoints (docs/webhooks.md). The cast: the
 * document types do not take TypeBox schemas, which are JSON Schema all the same.
 */
export const openApiWebhooks = {
  'mandate.updated': webhook(
    'mandateUpdatedEvent',
    'A mandate changed',
    'Sent when a mandate’s status (or accepted mandate) changes. `data` is the mandate exactly as GET /mandates shows it.',
    EventOf('mandate.updated', MandateRecord),
  ),
  'remittance.completed': webhook(
    'remittanceCompletedEvent',
    'A remittance batch was reconciled',
    'Counts and amounts (AUD) by outcome; `data.url` is the full report (GET /remittances/{batchId}).',
    EventOf('remittance.completed', RemittanceCompletedData),
  ),
  'remittance.funds_received': webhook(
    'remittanceFundsReceivedEvent',
    'The money of remittance entries was received',
    'Sent when a bank line of the foundation’s account is matched to entries of a batch (their money was received), ' +
      'or when an operator undoes such a match (`fundsReceived` false). `data.url` is the full report.',
    EventOf('remittance.funds_received', FundsReceivedData),
  ),
  'recurring_donation.debit_succeeded': webhook(
    'debitSucceededEvent',
    'A debit was collected',
    'Sent when a debit succeeds (days after it was submitted: BECS). `data.debit.donationReferenceId` is the donation it became.',
    EventOf('recurring_donation.debit_succeeded', DebitEventData),
  ),
  'recurring_donation.debit_failed': webhook(
    'debitFailedEvent',
    'A debit failed',
    'Sent when a try of a debit fails. `data.debit.failure` says why in plain words; `nextAttemptOn` is the next ' +
      'try, or null when there is none (the plan is then past_due, or canceled).',
    EventOf('recurring_donation.debit_failed', DebitEventData),
  ),
  'recurring_donation.canceled': webhook(
    'recurringDonationCanceledEvent',
    'A recurring donation was canceled',
    'By you, an operator, its mandate ending, or debits failing after their last try; `canceledReason` says which.',
    EventOf('recurring_donation.canceled', RecurringCanceledData),
  ),
  'donation.reversed': webhook(
    'donationReversedEvent',
    'A donation was reversed',
    'Sent for each reversal (yours, the foundation’s, or a disputed debit’s), with the donation’s net amount after it.',
    EventOf('donation.reversed', DonationReversedData),
  ),
  'donor.erased': webhook(
    'donorErasedEvent',
    'A donor’s details were erased',
    'Sent when the foundation erased a person’s details at their request (docs/privacy.md): only the references ' +
      'of your donations and mandates that no longer name them. Erase what you hold about them too.',
    EventOf('donor.erased', DonorErasedData),
  ),
  'webhook.test': webhook(
    'webhookTestEvent',
    'A test event',
    'Sent by POST /webhook-endpoints/{id}/test, to that endpoint only.',
    EventOf('webhook.test', WebhookTestData),
  ),
} as unknown as OpenApiWebhooks;
