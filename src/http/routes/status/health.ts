import { Type } from '@sinclair/typebox';
import { applicationInfo } from '../../../version.js';
import type { App, RouteDeps } from '../../route-context.js';
import { ErrorEnvelope, RequestHeaders, StringEnum } from '../../../contract/common.js';
import { errorResponses, ResponseHeaders, successResponse } from '../../schemas/responses.js';

const HealthDocument = Type.Object({
  serviceHealth: Type.Object({
    name: Type.String(),
    version: Type.String(),
    serviceType: Type.String({ examples: ['http'] }),
    status: StringEnum(['UP', 'DOWN']),
  }),
});

const healthExample = (status: 'UP' | 'DOWN') => ({
  serviceHealth: { name: applicationInfo.name, version: applicationInfo.version, serviceType: 'http', status },
});

const DATABASE_PROBE_TIMEOUT_MS = 2000;

/**
 * GET /health (section 4.1): not an envelope. DOWN with 503 when the database does not answer
 * (docs/decisions/0019-operational-endpoints-secured-and-probes-apart.md).
 */
export default async function healthRoute(app: App, { database }: RouteDeps) {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['operational'],
        summary: 'Health document',
        description:
          'UP when the service and its database answer. Not an envelope (section 4.1). When the database does not ' +
          'answer within 2 s: 503 with status DOWN (or the error envelope, if the credentials could not be checked).',
        headers: RequestHeaders,
        response: {
          200: successResponse(HealthDocument, 'The service and its database are up.', healthExample('UP')),
          ...errorResponses('/health'),
          503: {
            ...successResponse(
              // The envelope too: credentials that cannot be checked while the database is down answer with it.
              Type.Union([HealthDocument, Type.Ref(ErrorEnvelope)]),
              'The database does not answer: status DOWN. Retry after Retry-After seconds.',
              healthExample('DOWN'),
              ResponseHeaders.retryAfter,
            ),
          },
        },
      },
      config: { envelopeMethod: '/health' },
    },
    async (request, reply) => {
      const up = await database.ping(DATABASE_PROBE_TIMEOUT_MS).then(
        () => true,
        (err: Error) => {
          request.log.warn({ err: err.message }, 'health: database unreachable');
          return false;
        },
      );
      if (!up) reply.header('retry-after', '5');
      return reply.code(up ? 200 : 503).send({
        serviceHealth: {
          name: applicationInfo.name,
          version: applicationInfo.version,
          serviceType: 'http',
          status: up ? 'UP' : 'DOWN',
        },
      });
    },
  );
}
