import { Type } from '@sinclair/typebox';
import type { App } from '../../route-context.js';
import { RequestHeaders, standardErrors } from '../../schemas/common.js';

/** GET /ping (section 4.2): liveness only, no dependency is consulted. */
export default async function pingRoute(app: App) {
  app.get('/ping', {
    schema: { tags: ['operational'], summary: 'Liveness', headers: RequestHeaders, response: { 200: Type.Object({ status: Type.Literal('Ok') }), ...standardErrors } },
    config: { envelopeMethod: '/ping' },
  }, async () => ({ status: 'Ok' as const }));
}
