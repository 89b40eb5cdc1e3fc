import { Type } from '@sinclair/typebox';
import { getMandate } from '../../../services/mandates.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders, RequiredText } from '../../../contract/common.js';
import { MandateRecord, succeededMandateExample } from '../../../contract/mandate.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { requirePrincipal } from '../../types.js';

/** GET /mandates (section 4.6): one of the caller's mandates; anyone else's answers 404 like an unknown id. */
export default async function getMandatesRoute(app: App, { db, payments }: RouteDeps) {
  app.get(
    '/mandates',
    {
      schema: {
        operationId: 'getMandate',
        tags: ['mandates'],
        summary: 'Retrieve a mandate',
        description:
          'One of your mandates (section 4.6). `mandate` is `{}` until the status is `succeeded`. Another ' +
          'partner’s mandate id answers 404 exactly like an unknown id.',
        headers: RequestHeaders,
        querystring: Type.Object({ id: RequiredText(100, { description: 'mandateId returned by POST /mandates.' }) }),
        response: {
          200: envelopeResponse('/mandates', MandateRecord, 'The mandate.', succeededMandateExample),
          ...errorResponses('/mandates', 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/mandates' },
    },
    async (request, reply) =>
      sendItems(request, reply, await getMandate(db, payments, requirePrincipal(request.principal), request.query.id)),
  );
}
