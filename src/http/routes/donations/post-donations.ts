import { Type } from '@sinclair/typebox';
import { recordDonation } from '../../../services/record-donation.js';
import { markReplay, requestContext, sendItems, type App, type RouteDeps } from '../../route-context.js';
import { ErrorEnvelope, PostHeaders, standardErrors, SuccessEnvelope } from '../../schemas/common.js';
import { DonationRequest } from '../../schemas/donation.js';

/** POST /donations (section 4.5): records a donation collected on the partner platform. */
export default async function postDonationsRoute(app: App, { db, config }: RouteDeps) {
  app.post('/donations', {
    schema: {
      tags: ['donations'],
      summary: 'Record a donation',
      description: 'Idempotent: a retry with the same transaction.id, or the same Idempotency-Key, returns the first donationReferenceId; the same key with a different body is 409.',
      headers: PostHeaders,
      body: DonationRequest,
      response: { 200: SuccessEnvelope('/donations', Type.Object({ donationReferenceId: Type.String() })), ...standardErrors, 409: Type.Ref(ErrorEnvelope) },
    },
    config: { envelopeMethod: '/donations', channelFrom: 'body' },
  }, async (request, reply) => {
    const result = await recordDonation(db, request.body, requestContext(request, config));
    markReplay(reply, result.replayed);
    return sendItems(request, reply, result.items, result.status);
  });
}
