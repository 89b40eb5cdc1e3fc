import { Type } from '@sinclair/typebox';
import { createMandate } from '../../../services/mandates.js';
import { markReplay, requestContext, sendItems, type App, type RouteDeps } from '../../route-context.js';
import { ErrorEnvelope, PostHeaders, RequiredText, SourceWithFundraiser, standardErrors, SuccessEnvelope } from '../../schemas/common.js';

const MandateRequest = Type.Object({
  source: SourceWithFundraiser,
  fundraiser: Type.Object({ firstName: RequiredText(100), lastName: RequiredText(100), email: Type.String({ format: 'email', maxLength: 254 }) }),
  paymentMethod: Type.Literal('Direct Debit'),
});

const MandateCreated = Type.Object({
  fundraiserId: Type.String(),
  clientSecret: Type.String({ description: "Confirms the mandate with the payment provider's client library." }),
  mandateId: Type.String({ description: 'Added to the contract: the id GET /mandates takes.' }),
});

/** POST /mandates (section 4.7): a direct-debit mandate for the fundraiser. */
export default async function postMandatesRoute(app: App, { db, payments, config }: RouteDeps) {
  app.post('/mandates', {
    schema: {
      tags: ['mandates'],
      summary: 'Create a mandate',
      headers: PostHeaders,
      body: MandateRequest,
      response: { 200: SuccessEnvelope('/mandates', MandateCreated), ...standardErrors, 409: Type.Ref(ErrorEnvelope) },
    },
    config: { envelopeMethod: '/mandates', channelFrom: 'body' },
  }, async (request, reply) => {
    const result = await createMandate(db, payments, request.body, requestContext(request, config));
    markReplay(reply, result.replayed);
    return sendItems(request, reply, result.items, result.status);
  });
}
