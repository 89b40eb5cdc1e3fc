import { Type } from '@sinclair/typebox';
import { reverseOwnDonation } from '../../../services/reversals/partner-reversal.js';
import { markReplay, requestContext, sendItems, setLocation, type App, type RouteDeps } from '../../route-context.js';
import { PostHeaders, RequiredText } from '../../../contract/common.js';
import { ReversalRecord, ReversalRequest } from '../../../contract/reversals.js';
import { reversalExample } from '../../schemas/reversal-examples.js';
import { BODY_ERRORS, envelopeResponse, errorResponses, ResponseHeaders } from '../../schemas/responses.js';

/** POST /donations/{donationReferenceId}/reversals (extension): a refund, duplicate, fraud or error, whole or part. */
export default async function postReversalRoute(app: App, { db, config }: RouteDeps) {
  app.post(
    '/donations/:donationReferenceId/reversals',
    {
      schema: {
        tags: ['donations'],
        operationId: 'reverseDonation',
        summary: 'Reverse a donation, whole or in part',
        description:
          'Takes `amount` back from one of your donations: reversals of a donation never sum to more than it (400 ' +
          'naming `amount` otherwise; 409 for a donation recorded without an amount or already reversed in full). ' +
          'After the donation was settled, the amount is money the foundation owes back. `transaction.id` and ' +
          'Idempotency-Key make a retry safe. Sends `donation.reversed`. 201 with a `Location` (the donation).',
        headers: PostHeaders,
        params: Type.Object({ donationReferenceId: RequiredText(64) }),
        body: ReversalRequest,
        response: {
          201: envelopeResponse('/donations', ReversalRecord, 'The reversal.', reversalExample, {
            ...ResponseHeaders.location,
            ...ResponseHeaders.replayed,
          }),
          200: envelopeResponse('/donations', ReversalRecord, 'A retry: the reversal made first.', reversalExample, {
            ...ResponseHeaders.location,
            ...ResponseHeaders.replayed,
          }),
          ...errorResponses('/donations', ...BODY_ERRORS, 'NOT_FOUND', 'CONFLICT'),
        },
      },
      config: { envelopeMethod: '/donations' },
    },
    async (request, reply) => {
      const { donationReferenceId } = request.params;
      const result = await reverseOwnDonation(db, donationReferenceId, request.body, requestContext(request, config));
      markReplay(reply, result.replayed);
      setLocation(reply, config, `/donations/${encodeURIComponent(donationReferenceId)}`);
      return sendItems(request, reply, result.items, result.status);
    },
  );
}
