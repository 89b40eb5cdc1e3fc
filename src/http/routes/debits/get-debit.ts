import { Type } from '@sinclair/typebox';
import { getDebit } from '../../../services/recurring/read-plans.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders, RequiredText } from '../../../contract/common.js';
import { DebitRecord } from '../../../contract/recurring.js';
import { debitExample } from '../../schemas/recurring-examples.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { requirePrincipal } from '../../types.js';

/** GET /debits/{debitId} (extension): one debit, of a plan or one-off. */
export default async function getDebitRoute(app: App, { recurring }: RouteDeps) {
  app.get(
    '/debits/:debitId',
    {
      schema: {
        tags: ['recurring donations'],
        operationId: 'getDebit',
        summary: 'Read a debit',
        description: 'Its status, failure in plain words, next try, and the donation it became once collected.',
        headers: RequestHeaders,
        params: Type.Object({ debitId: RequiredText(100) }),
        response: {
          200: envelopeResponse('/debits', DebitRecord, 'The debit.', debitExample),
          ...errorResponses('/debits', 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/debits' },
    },
    async (request, reply) =>
      sendItems(request, reply, await getDebit(recurring, requirePrincipal(request.principal), request.params.debitId)),
  );
}
