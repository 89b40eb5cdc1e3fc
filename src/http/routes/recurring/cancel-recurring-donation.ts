import { Type } from '@sinclair/typebox';
import { cancelRecurringDonation } from '../../../services/recurring/read-plans.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { PostHeaders, RequiredText } from '../../../contract/common.js';
import { RecurringDonationRecord } from '../../../contract/recurring.js';
import { recurringDonationExample } from '../../schemas/recurring-examples.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { requirePrincipal } from '../../types.js';

/** POST /recurring-donations/{id}/cancel (extension): no further debits. */
export default async function cancelRecurringDonationRoute(app: App, { recurring }: RouteDeps) {
  app.post(
    '/recurring-donations/:id/cancel',
    {
      schema: {
        tags: ['recurring donations'],
        operationId: 'cancelRecurringDonation',
        summary: 'Cancel a recurring donation',
        description:
          'No further debit is made; a debit already with the bank goes on to its outcome. Canceling again is a ' +
          'no-op that answers the plan; a completed plan is 409. Sends `recurring_donation.canceled`.',
        headers: PostHeaders,
        params: Type.Object({ id: RequiredText(100) }),
        response: {
          200: envelopeResponse('/recurring-donations', RecurringDonationRecord, 'The canceled plan.', {
            ...recurringDonationExample,
            status: 'canceled',
            nextDebitDate: null,
            canceledReason: 'Canceled by the partner',
          }),
          ...errorResponses('/recurring-donations', 'NOT_FOUND', 'CONFLICT'),
        },
      },
      config: { envelopeMethod: '/recurring-donations' },
    },
    async (request, reply) =>
      sendItems(
        request,
        reply,
        await cancelRecurringDonation(recurring, requirePrincipal(request.principal), request.params.id),
      ),
  );
}
