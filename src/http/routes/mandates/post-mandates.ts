import { Type } from '@sinclair/typebox';
import { createMandate } from '../../../services/mandates.js';
import { markReplay, requestContext, sendItems, setLocation, type App, type RouteDeps } from '../../route-context.js';
import { PostHeaders } from '../../../contract/common.js';
import { MandateRequest } from '../../../contract/mandate.js';
import { BODY_ERRORS, envelopeResponse, errorResponses, ResponseHeaders } from '../../schemas/responses.js';

const MandateCreated = Type.Object({
  fundraiserId: Type.String(),
  clientSecret: Type.String({ description: "Confirms the mandate with the payment provider's client library." }),
  mandateId: Type.String({ description: 'Added to the contract: the id GET /mandates takes.' }),
});

/** POST /mandates (section 4.7): a direct-debit mandate for the fundraiser. */
export default async function postMandatesRoute(app: App, { db, enrolments, payments, mandates, config }: RouteDeps) {
  app.post(
    '/mandates',
    {
      schema: {
        operationId: 'createMandate',
        tags: ['mandates'],
        summary: 'Create a mandate',
        description:
          'A direct-debit mandate for the fundraiser (section 4.7), who must have an active enrolment with the ' +
          'channel. Confirm it with `clientSecret` and the payment provider’s client library (in the sandbox: ' +
          'POST /sandbox/mandates/{id}/confirm), then read it with GET /mandates. Send an Idempotency-Key: ' +
          'without one, a retry creates a second mandate.',
        headers: PostHeaders,
        body: MandateRequest,
        response: {
          200: envelopeResponse(
            '/mandates',
            MandateCreated,
            'The mandate is created at status requires_payment_method.',
            {
              fundraiserId: '10000001',
              clientSecret: 'seti_12flWgZGxGxeJLOxhdrFmxD9_secret_UCdLmh9VFNmkcANwOzoaunfsv',
              mandateId: 'seti_12flWgZGxGxeJLOxhdrFmxD9',
            },
            { ...ResponseHeaders.location, ...ResponseHeaders.replayed },
          ),
          ...errorResponses('/mandates', ...BODY_ERRORS, 'FUNDRAISER_NOT_ENROLLED', 'CONFLICT'),
        },
      },
      config: { envelopeMethod: '/mandates', channelFrom: 'body' },
    },
    async (request, reply) => {
      const deps = { db, enrolments, provider: payments, mandates };
      const result = await createMandate(deps, request.body, requestContext(request, config));
      markReplay(reply, result.replayed);
      setLocation(reply, config, `/mandates?id=${encodeURIComponent(result.items.mandateId)}`);
      return sendItems(request, reply, result.items, result.status);
    },
  );
}
