import { Type } from '@sinclair/typebox';
import { removeEndpoint } from '../../../services/webhooks/endpoints.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders } from '../../../contract/common.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { endpointExample } from '../../schemas/examples.js';
import { requirePrincipal } from '../../types.js';
import { EndpointParams } from './get-webhook-endpoint.js';

/** DELETE /webhook-endpoints/{id}: nothing more is sent there; pending deliveries to it stop. */
export default async function deleteWebhookEndpointRoute(app: App, { db }: RouteDeps) {
  app.delete(
    '/webhook-endpoints/:id',
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description: 'Events keep being recorded in the event log (GET /events).',
        headers: RequestHeaders,
        params: EndpointParams,
        response: {
          200: envelopeResponse(
            '/webhook-endpoints',
            Type.Object({ id: Type.String({ format: 'uuid' }), deleted: Type.Literal(true) }),
            'The endpoint is deleted: nothing more is sent to it.',
            { id: endpointExample.id, deleted: true },
          ),
          ...errorResponses('/webhook-endpoints', 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/webhook-endpoints' },
    },
    async (request, reply) =>
      sendItems(request, reply, await removeEndpoint(db, requirePrincipal(request.principal), request.params.id)),
  );
}
