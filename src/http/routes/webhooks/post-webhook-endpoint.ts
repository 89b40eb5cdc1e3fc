import { createEndpoint } from '../../../services/webhooks/endpoints.js';
import { markReplay, requestContext, sendItems, setLocation, type App, type RouteDeps } from '../../route-context.js';
import { PostHeaders } from '../../../contract/common.js';
import { endpointWithSecretExample } from '../../schemas/examples.js';
import { BODY_ERRORS, envelopeResponse, errorResponses, ResponseHeaders } from '../../schemas/responses.js';
import { EndpointRequest, EndpointWithSecret } from '../../../contract/webhooks.js';

/** POST /webhook-endpoints: a partner registers a receiver and gets its signing secret, once. */
export default async function postWebhookEndpointRoute(app: App, { db, config, webhooks }: RouteDeps) {
  app.post(
    '/webhook-endpoints',
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint',
        description:
          'Answers 201 with the endpoint and its signing secret (`whsec_…`), which is shown only here, and a `Location` header. ' +
          'A URL the service may not send to answers 400 naming `url`.',
        headers: PostHeaders,
        body: EndpointRequest,
        response: {
          201: envelopeResponse(
            '/webhook-endpoints',
            EndpointWithSecret,
            'The endpoint is registered (or was already: a replay); its secret is shown only here.',
            endpointWithSecretExample,
            { ...ResponseHeaders.location, ...ResponseHeaders.replayed },
          ),
          ...errorResponses('/webhook-endpoints', ...BODY_ERRORS, 'CONFLICT'),
        },
      },
      config: { envelopeMethod: '/webhook-endpoints' },
    },
    async (request, reply) => {
      const result = await createEndpoint(db, webhooks, request.body, requestContext(request, config));
      markReplay(reply, result.replayed);
      setLocation(reply, config, `/webhook-endpoints/${result.items.id}`);
      return sendItems(request, reply, result.items, result.status);
    },
  );
}
