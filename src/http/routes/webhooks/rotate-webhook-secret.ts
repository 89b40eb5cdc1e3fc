import { rotateSecret } from '../../../services/webhooks/endpoint-actions.js';
import { markReplay, requestContext, sendItems, type App, type RouteDeps } from '../../route-context.js';
import { PostHeaders } from '../../../contract/common.js';
import { endpointWithSecretExample } from '../../schemas/examples.js';
import { envelopeResponse, errorResponses, ResponseHeaders } from '../../schemas/responses.js';
import { EndpointWithSecret } from '../../../contract/webhooks.js';
import { EndpointParams } from './get-webhook-endpoint.js';

/** POST /webhook-endpoints/{id}/rotate-secret: a new secret; the previous one keeps signing for an overlap. */
export default async function rotateWebhookSecretRoute(app: App, { db, config, webhooks }: RouteDeps) {
  app.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret of a webhook endpoint',
        description:
          `Answers the new secret, shown only here. For ${config.WEBHOOK_ROTATION_OVERLAP_SECONDS} seconds ` +
          '(`previousSecretExpiresAt`) every message carries two signatures, one per secret, so either verifies.',
        headers: PostHeaders,
        params: EndpointParams,
        response: {
          200: envelopeResponse(
            '/webhook-endpoints',
            EndpointWithSecret,
            'The endpoint with its new secret (shown only here); the previous one signs too until previousSecretExpiresAt.',
            { ...endpointWithSecretExample, previousSecretExpiresAt: '2026-11-22T10:46:13.131Z' },
            ResponseHeaders.replayed,
          ),
          ...errorResponses('/webhook-endpoints', 'NOT_FOUND', 'CONFLICT'),
        },
      },
      config: { envelopeMethod: '/webhook-endpoints' },
    },
    async (request, reply) => {
      const result = await rotateSecret(db, webhooks, requestContext(request, config), request.params.id);
      markReplay(reply, result.replayed);
      return sendItems(request, reply, result.items, result.status);
    },
  );
}
