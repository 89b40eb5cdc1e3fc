import { Type } from '@sinclair/typebox';
import { sendTestEvent } from '../../../services/webhooks/endpoint-actions.js';
import { markReplay, requestContext, sendItems, type App, type RouteDeps } from '../../route-context.js';
import { PostHeaders } from '../../../contract/common.js';
import { testEventExample } from '../../schemas/examples.js';
import { envelopeResponse, errorResponses, ResponseHeaders } from '../../schemas/responses.js';
import { EndpointParams } from './get-webhook-endpoint.js';

/** POST /webhook-endpoints/{id}/test: sends a `webhook.test` event to that endpoint. */
export default async function testWebhookEndpointRoute(app: App, { db, config }: RouteDeps) {
  app.post(
    '/webhook-endpoints/:id/test',
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'testWebhookEndpoint',
        summary: 'Send a test event to a webhook endpoint',
        description:
          'Queues a `webhook.test` delivery (202); follow it with GET /webhook-endpoints/{id}/deliveries. 409 when the endpoint is disabled.',
        headers: PostHeaders,
        params: EndpointParams,
        response: {
          202: envelopeResponse(
            '/webhook-endpoints',
            Type.Object({ eventId: Type.String(), deliveryId: Type.String({ format: 'uuid' }) }),
            'A webhook.test event is queued for the endpoint; follow it with GET …/deliveries.',
            testEventExample,
            ResponseHeaders.replayed,
          ),
          ...errorResponses('/webhook-endpoints', 'NOT_FOUND', 'CONFLICT'),
        },
      },
      config: { envelopeMethod: '/webhook-endpoints' },
    },
    async (request, reply) => {
      const result = await sendTestEvent(db, requestContext(request, config), request.params.id);
      markReplay(reply, result.replayed);
      return sendItems(request, reply, result.items, result.status);
    },
  );
}
