import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../api-errors.js';
import { retryDelaysDays } from '../../../config/index.js';
import { handleStripeEvent, type StripeEventDeps } from '../../../services/stripe-webhooks.js';
import type { App } from '../../route-context.js';
import { errorResponses, successResponse } from '../../schemas/responses.js';
import { hostServers, type OperationsDeps } from './context.js';
import { receiptPolicy } from '../../../config/receipts.js';

/** Stripe's events are a few kilobytes; anything much larger is not one. */
const BODY_LIMIT_BYTES = 256 * 1024;

const Received = Type.Object({
  received: Type.Boolean(),
  outcome: Type.String({ description: 'applied, replayed (already handled), stale (older than the state), ignored.' }),
});

/**
 * POST /webhooks/stripe: Stripe's events about our setup intents, mandates and debits. The signature is checked by
 * the SDK over the raw body (so this route keeps the body as bytes), with STRIPE_WEBHOOK_SECRET and the SDK's
 * default tolerance; a missing or wrong signature is 400 and changes nothing.
 */
export default async function stripeWebhookRoute(app: App, operations: OperationsDeps) {
  const { config, stripe } = operations;
  const deps = eventDeps(operations);
  await app.register(async (scoped) => {
    scoped.removeContentTypeParser('application/json');
    scoped.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );
    scoped.post(
      '/webhooks/stripe',
      {
        schema: {
          operationId: 'receiveStripeEvent',
          tags: ['operations'],
          summary: 'Stripe webhook',
          description:
            'Configure in the Stripe dashboard with the events setup_intent.succeeded, setup_intent.setup_failed, ' +
            'setup_intent.canceled, setup_intent.requires_action, mandate.updated, payment_intent.processing, ' +
            'payment_intent.succeeded, payment_intent.payment_failed and charge.dispute.created. Signed with ' +
            'STRIPE_WEBHOOK_SECRET (Stripe-Signature header); each event id is applied once. 404 when Stripe is ' +
            'not the payment provider, or for an event of ours that arrived before what it is about was recorded ' +
            '(Stripe delivers it again).',
          servers: hostServers(config),
          headers: Type.Object({ 'stripe-signature': Type.Optional(Type.String()) }),
          response: {
            200: successResponse(Received, 'The event is acknowledged.', { received: true, outcome: 'applied' }),
            ...errorResponses('/webhooks/stripe', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'),
          },
        },
        config: { public: true, envelopeMethod: '/webhooks/stripe' },
      },
      async (request, reply) => {
        if (!stripe || !deps) throw new ApiError('NOT_FOUND', 'Stripe is not the payment provider of this deployment');
        const signature = request.headers['stripe-signature'];
        if (!signature || !Buffer.isBuffer(request.body))
          throw new ApiError('VALIDATION', 'header Stripe-Signature: is required, over a JSON body');
        let event;
        try {
          event = stripe.client.webhooks.constructEvent(request.body, signature, stripe.webhookSecret);
        } catch {
          request.log.warn('stripe webhook: signature does not verify (wrong secret, altered body, or too old)');
          throw new ApiError('VALIDATION', 'header Stripe-Signature: does not match the body');
        }
        const outcome = await handleStripeEvent(deps, event);
        request.log.info({ stripeEvent: event.id, type: event.type, outcome }, 'stripe webhook');
        return reply.send({ received: true, outcome });
      },
    );
  });
}

/** What applying Stripe's events needs: the debits' policy (retries, receipts) and the clock; null without Stripe. */
function eventDeps({ config, database, stripe, now }: OperationsDeps): StripeEventDeps | null {
  return (
    stripe && {
      db: database.db,
      provider: stripe.provider,
      policy: {
        retryDelaysDays: retryDelaysDays(config),
        cancelAfterFailedDebits: config.RECURRING_CANCEL_AFTER_FAILED_DEBITS,
        receipts: receiptPolicy(config),
      },
      timeZone: config.FOUNDATION_TIME_ZONE,
      now,
    }
  );
}
