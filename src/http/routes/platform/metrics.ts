import { timingSafeEqual, createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../api-errors.js';
import type { App } from '../../route-context.js';
import { errorResponses, ResponseHeaders } from '../../schemas/responses.js';
import { hostServers, type OperationsDeps } from './context.js';

const EXAMPLE = `# HELP http_requests_total HTTP requests answered, by route pattern, method and status.
# TYPE http_requests_total counter
http_requests_total{route="/v1/donations",method="POST",status="201"} 42
`;

/**
 * GET /metrics in Prometheus' text format, behind `Authorization: Bearer <METRICS_TOKEN>` (compared in constant
 * time). Without METRICS_TOKEN the endpoint does not exist (404): metrics name routes and volumes, which is not
 * for anyone on the internet.
 */
export default async function metricsRoute(app: App, { config, metrics }: OperationsDeps) {
  const token = config.METRICS_TOKEN ? digest(config.METRICS_TOKEN) : null;
  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'Requests by route, method and status; latency; refused calls; donations recorded; mandates by status; ' +
          'remittance entries by outcome; database pool; Node.js process. Requires `Authorization: Bearer` with ' +
          'METRICS_TOKEN; 404 when the deployment sets no METRICS_TOKEN.',
        servers: hostServers(config),
        headers: Type.Object({ authorization: Type.Optional(Type.String({ description: 'Bearer METRICS_TOKEN' })) }),
        response: {
          200: {
            description: 'The metrics, in the Prometheus text exposition format.',
            headers: ResponseHeaders.correlationId,
            content: { 'text/plain': { schema: Type.String(), example: EXAMPLE } },
          },
          ...errorResponses('/metrics', 'NOT_FOUND'),
        },
      },
      config: { public: true, envelopeMethod: '/metrics' },
    },
    async (request, reply) => {
      if (!token) throw new ApiError('NOT_FOUND', 'Metrics are not enabled on this deployment (METRICS_TOKEN)');
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? digest(header.slice(7)) : null;
      if (!given || !timingSafeEqual(given, token)) {
        reply.header('www-authenticate', 'Bearer');
        throw new ApiError('UNAUTHORIZED', 'Authorization: Bearer METRICS_TOKEN required');
      }
      const body = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
}

/** Hashing first makes the comparison constant-time whatever the lengths. */
const digest = (value: string) => createHash('sha256').update(value).digest();
