import { createRecurringDonation } from '../../../services/recurring/create-plan.js';
import { markReplay, requestContext, sendItems, setLocation, type App, type RouteDeps } from '../../route-context.js';
import { PostHeaders } from '../../../contract/common.js';
import { RecurringDonationRecord, RecurringDonationRequest } from '../../../contract/recurring.js';
import { recurringDonationExample } from '../../schemas/recurring-examples.js';
import { BODY_ERRORS, envelopeResponse, errorResponses, ResponseHeaders } from '../../schemas/responses.js';

/** POST /recurring-donations (extension): a plan of debits on a succeeded mandate. */
export default async function postRecurringDonationRoute(app: App, { config, recurring, enrolments }: RouteDeps) {
  app.post(
    '/recurring-donations',
    {
      schema: {
        tags: ['recurring donations'],
        operationId: 'createRecurringDonation',
        summary: 'Start a recurring donation on a mandate',
        description:
          'Debits the mandate’s payer for `amount` at `frequency` from `startDate` (dates in the foundation’s time ' +
          'zone) until `endDate`, `numberOfDebits`, or a cancel. The mandate must be yours and `succeeded` (409 ' +
          'naming its status otherwise; another partner’s is 404 as an unknown one). Each collected debit becomes a ' +
          'donation, told by `recurring_donation.debit_succeeded`. 201 with a `Location`; a retry with the same ' +
          '`partnerReference` or Idempotency-Key answers the plan created first (200).',
        headers: PostHeaders,
        body: RecurringDonationRequest,
        response: {
          201: envelopeResponse(
            '/recurring-donations',
            RecurringDonationRecord,
            'The plan, with its first debit when it is due today.',
            recurringDonationExample,
            { ...ResponseHeaders.location, ...ResponseHeaders.replayed },
          ),
          200: envelopeResponse(
            '/recurring-donations',
            RecurringDonationRecord,
            'A retry: the plan created first.',
            recurringDonationExample,
            { ...ResponseHeaders.location, ...ResponseHeaders.replayed },
          ),
          ...errorResponses('/recurring-donations', ...BODY_ERRORS, 'FUNDRAISER_NOT_ENROLLED', 'NOT_FOUND', 'CONFLICT'),
        },
      },
      config: { envelopeMethod: '/recurring-donations' },
    },
    async (request, reply) => {
      const result = await createRecurringDonation(
        { ...recurring, enrolments },
        request.body,
        requestContext(request, config),
      );
      markReplay(reply, result.replayed);
      setLocation(reply, config, `/recurring-donations/${result.items.recurringDonationId}`);
      return sendItems(request, reply, result.items, result.status);
    },
  );
}
