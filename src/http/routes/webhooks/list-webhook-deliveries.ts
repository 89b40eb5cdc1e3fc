import { Type } from '@sinclair/typebox';
import { endpointDeliveries } from '../../../services/webhooks/endpoint-actions.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders } from '../../../contract/common.js';
import { deliveryExample } from '../../schemas/examples.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { DeliveryRecord } from '../../../contract/webhooks.js';
import { requirePrincipal } from '../../types.js';
import { EndpointParams } from './get-webhook-endpoint.js';

/** GET /webhook-endpoints/{id}/deliveries: newest first, each with every attempt (status, latency, answer). */
export default async function listWebhookDeliveriesRoute(app: App, { db }: RouteDeps) {
  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'listWebhookDeliveries',
        description:
          'Deliveries to the endpoint, newest first, each attempt with its time, HTTP status, latency and a snippet of the answer.',
        summary: 'List the deliveries of a webhook endpoint',
        headers: RequestHeaders,
        params: EndpointParams,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
        }),
        response: {
          200: envelopeResponse(
            '/webhook-endpoints',
            Type.Array(DeliveryRecord),
            'The latest deliveries to the endpoint, newest first, each with its attempts.',
            [deliveryExample],
          ),
          ...errorResponses('/webhook-endpoints', 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/webhook-endpoints' },
    },
    async (request, reply) =>
      sendItems(
        request,
        reply,
        await endpointDeliveries(db, requirePrincipal(request.principal), request.params.id, request.query.limit ?? 50),
      ),
  );
}
