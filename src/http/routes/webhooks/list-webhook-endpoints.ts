import { Type } from '@sinclair/typebox';
import { listEndpoints } from '../../../services/webhooks/endpoints.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders } from '../../../contract/common.js';
import { endpointExample } from '../../schemas/examples.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { EndpointRecord } from '../../../contract/webhooks.js';
import { requirePrincipal } from '../../types.js';

/** GET /webhook-endpoints: the caller's endpoints (never their secrets), with why any is disabled. */
export default async function listWebhookEndpointsRoute(app: App, { db }: RouteDeps) {
  app.get(
    '/webhook-endpoints',
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'listWebhookEndpoints',
        description: 'Your endpoints (never their secrets), with why any is disabled.',
        summary: 'List your webhook endpoints',
        headers: RequestHeaders,
        response: {
          200: envelopeResponse('/webhook-endpoints', Type.Array(EndpointRecord), 'Your endpoints.', [endpointExample]),
          ...errorResponses('/webhook-endpoints'),
        },
      },
      config: { envelopeMethod: '/webhook-endpoints' },
    },
    async (request, reply) => sendItems(request, reply, await listEndpoints(db, requirePrincipal(request.principal))),
  );
}
