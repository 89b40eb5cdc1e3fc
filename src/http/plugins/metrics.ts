import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { routeOf } from '../route-of.js';
import type { AppMetrics } from '../../infrastructure/metrics/metrics.js';

/**
 * Counts every answered request into the app's metrics: by route pattern (never the raw path, whose ids would make
 * unbounded label values), method and status; its latency; refused partner calls; recorded donations.
 */
export const metricsPlugin = fp<{ metrics: AppMetrics; donationsRoute: string }>(
  async (app: FastifyInstance, { metrics, donationsRoute }) => {
    app.addHook('onResponse', (request, reply, done) => {
      const matched = routeOf(request);
      const route = matched.url ?? '(no route)';
      const status = reply.statusCode;
      metrics.requests.inc({ route, method: request.method, status: String(status) });
      metrics.latency.observe({ route, method: request.method }, reply.elapsedTime / 1000);
      if ((status === 401 || status === 429) && !matched.config?.public)
        metrics.rejections.inc({ reason: status === 401 ? 'authentication' : 'quota' });
      const replayed = reply.getHeader('idempotent-replayed') === 'true';
      if (route === donationsRoute && request.method === 'POST' && status < 300 && !replayed)
        metrics.donationsRecorded.inc();
      done();
    });
  },
  { name: 'metrics' },
);
