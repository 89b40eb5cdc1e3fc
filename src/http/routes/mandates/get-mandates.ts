import { Type } from '@sinclair/typebox';
import { getMandate } from '../../../services/mandates.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { ErrorEnvelope, RequestHeaders, RequiredText, standardErrors, SuccessEnvelope } from '../../schemas/common.js';
import { MandateRecord } from '../../schemas/mandate.js';
import { requirePrincipal } from '../../types.js';

/** GET /mandates (section 4.6): one of the caller's mandates; anyone else's answers 404 like an unknown id. */
export default async function getMandatesRoute(app: App, { db, payments }: RouteDeps) {
  app.get('/mandates', {
    schema: {
      tags: ['mandates'],
      summary: 'Retrieve a mandate',
      headers: RequestHeaders,
      querystring: Type.Object({ id: RequiredText(100, { description: 'mandateId returned by POST /mandates.' }) }),
      response: { 200: SuccessEnvelope('/mandates', MandateRecord), ...standardErrors, 404: Type.Ref(ErrorEnvelope) },
    },
    config: { envelopeMethod: '/mandates' },
  }, async (request, reply) => sendItems(request, reply, await getMandate(db, payments, requirePrincipal(request.principal), request.query.id)));
}
