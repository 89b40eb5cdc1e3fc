import { Type } from '@sinclair/typebox';
import { getEndpoint } from '../../../services/webhooks/endpoints.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders } from '../../../contract/common.js';
import { endpointExample } from '../../schemas/examples.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { EndpointRecord } from '../../../contract/webhooks.js';
import { requirePrincipal } from '../../types.js';

export const EndpointParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'The endpoint id.' }) });

/** GET /webhook-endpoints/{id}: one of the caller's endpoints; anyone else's answers 404 like an unknown id. */
export default async function getWebhookEndpointRoute(app: App, { db }: RouteDeps) {
  app.get(
    '/webhook-endpoints/:id',
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'getWebhookEndpoint',
        description:
          'The endpoint, its subscribed event types and status (with why it is disabled, if it is); never its secret.',
        summary: 'Read a webhook endpoint',
        headers: RequestHeaders,
        params: EndpointParams,
        response: {
          200: envelopeResponse(
            '/webhook-endpoints',
            EndpointRecord,
            'The endpoint (never its secret).',
            endpointExample,
          ),
          ...errorResponses('/webhook-endpoints', 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/webhook-endpoints' },
    },
    async (request, reply) =>
      sendItems(request, reply, await getEndpoint(db, requirePrincipal(request.principal), request.params.id)),
  );
}
