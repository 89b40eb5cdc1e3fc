import { Type } from '@sinclair/typebox';
import { listPartnerEvents } from '../../../services/webhooks/event-log.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders, RequiredText } from '../../../contract/common.js';
import { eventPageExample } from '../../schemas/examples.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { EventRecord } from '../../../contract/webhooks.js';
import { requirePrincipal } from '../../types.js';

/** GET /events: the caller's events in order, to catch up after missed deliveries. */
export default async function listEventsRoute(app: App, { db, config }: RouteDeps) {
  app.get(
    '/events',
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'listEvents',
        summary: 'List your events (the event log)',
        description:
          `Your events in \`sequence\` order, kept ${config.EVENT_RETENTION_DAYS} days. Pass the id of the last event ` +
          'you processed as `after` to read what followed; `hasMore` says whether to ask again. An unknown `after` is 400.',
        headers: RequestHeaders,
        querystring: Type.Object({
          after: Type.Optional(RequiredText(64, { description: 'An event id.' })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
        }),
        response: {
          200: envelopeResponse(
            '/events',
            Type.Object({ events: Type.Array(EventRecord), hasMore: Type.Boolean() }),
            'The next events after `after`, in sequence order.',
            eventPageExample,
          ),
          ...errorResponses('/events'),
        },
      },
      config: { envelopeMethod: '/events' },
    },
    async (request, reply) =>
      sendItems(
        request,
        reply,
        await listPartnerEvents(db, requirePrincipal(request.principal), {
          after: request.query.after,
          limit: request.query.limit ?? 100,
        }),
      ),
  );
}
