import { Type } from '@sinclair/typebox';
import { recordDonation } from '../../../services/record-donation.js';
import { markReplay, requestContext, sendItems, type App, type RouteDeps } from '../../route-context.js';
import { PostHeaders } from '../../../contract/common.js';
import { DonationRequest } from '../../../contract/donation.js';
import { BODY_ERRORS, envelopeResponse, errorResponses, ResponseHeaders } from '../../schemas/responses.js';

/** POST /donations (section 4.5): records a donation collected on the partner platform. */
export default async function postDonationsRoute(app: App, { db, enrolments, donations, config }: RouteDeps) {
  app.post(
    '/donations',
    {
      schema: {
        operationId: 'recordDonation',
        tags: ['donations'],
        summary: 'Record a donation',
        description:
          'Records a donation already collected on the partner platform (section 4.5). Keep `donationReferenceId`: ' +
          'remittances refer to donations by it. Idempotent: a retry with the same transaction.id, or the same ' +
          'Idempotency-Key, returns the first donationReferenceId (header Idempotent-Replayed: true); the same key ' +
          'with a different body is 409.',
        headers: PostHeaders,
        body: DonationRequest,
        response: {
          200: envelopeResponse(
            '/donations',
            Type.Object({ donationReferenceId: Type.String({ description: 'Issued by the service; keep it.' }) }),
            'The donation is recorded (or was already: a replay).',
            { donationReferenceId: 'DON-023Z4EWC5XSNVJWQ' },
            ResponseHeaders.replayed,
          ),
          ...errorResponses('/donations', ...BODY_ERRORS, 'FUNDRAISER_NOT_ENROLLED', 'CONFLICT'),
        },
      },
      config: { envelopeMethod: '/donations', channelFrom: 'body' },
    },
    async (request, reply) => {
      const result = await recordDonation(
        { db, enrolments, donations, timeZone: config.FOUNDATION_TIME_ZONE },
        request.body,
        requestContext(request, config),
      );
      markReplay(reply, result.replayed);
      return sendItems(request, reply, result.items, result.status);
    },
  );
}
