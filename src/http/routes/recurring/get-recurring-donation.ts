import { Type } from '@sinclair/typebox';
import { getRecurringDonation } from '../../../services/recurring/read-plans.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders, RequiredText } from '../../../contract/common.js';
import { RecurringDonationRecord } from '../../../contract/recurring.js';
import { recurringDonationExample } from '../../schemas/recurring-examples.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { requirePrincipal } from '../../types.js';

/** GET /recurring-donations/{id} (extension): the plan, its next date and its debits. */
export default async function getRecurringDonationRoute(app: App, { recurring }: RouteDeps) {
  app.get(
    '/recurring-donations/:id',
    {
      schema: {
        tags: ['recurring donations'],
        operationId: 'getRecurringDonation',
        summary: 'Read a recurring donation',
        description:
          'The plan, its status and next debit date, and every debit made so far with its status, its failure in ' +
          'plain words, and the `donationReferenceId` of a collected one. Another partner’s plan answers 404.',
        headers: RequestHeaders,
        params: Type.Object({ id: RequiredText(100) }),
        response: {
          200: envelopeResponse('/recurring-donations', RecurringDonationRecord, 'The plan.', recurringDonationExample),
          ...errorResponses('/recurring-donations', 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/recurring-donations' },
    },
    async (request, reply) =>
      sendItems(
        request,
        reply,
        await getRecurringDonation(recurring, requirePrincipal(request.principal), request.params.id),
      ),
  );
}
