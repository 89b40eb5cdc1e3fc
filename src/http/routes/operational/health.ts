import { Type } from '@sinclair/typebox';
import { applicationInfo } from '../../../version.js';
import type { App, RouteDeps } from '../../route-context.js';
import { RequestHeaders, standardErrors } from '../../schemas/common.js';

const HealthDocument = Type.Object({
  serviceHealth: Type.Object({
    name: Type.String(),
    version: Type.String(),
    serviceType: Type.String({ examples: ['http'] }),
    status: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]),
  }),
});

const DATABASE_PROBE_TIMEOUT_MS = 2000;

/** GET /health (section 4.1): not an envelope. DOWN with 503 when the database does not answer (DESIGN.md §16). */
export default async function healthRoute(app: App, { database }: RouteDeps) {
  app.get('/health', {
    schema: { tags: ['operational'], summary: 'Health document', headers: RequestHeaders, response: { 200: HealthDocument, ...standardErrors, 503: HealthDocument } },
    config: { envelopeMethod: '/health' },
  }, async (request, reply) => {
    const up = await database.ping(DATABASE_PROBE_TIMEOUT_MS).then(() => true, (err: Error) => {
      request.log.warn({ err: err.message }, 'health: database unreachable');
      return false;
    });
    if (!up) reply.header('retry-after', '5');
    return reply.code(up ? 200 : 503).send({
      serviceHealth: { name: applicationInfo.name, version: applicationInfo.version, serviceType: 'http', status: up ? 'UP' : 'DOWN' },
    });
  });
}
