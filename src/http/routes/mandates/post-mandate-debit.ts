import { Type } from '@sinclair/typebox';
import { requestOneOffDebit } from '../../../services/recurring/one-off-debit.js';
import { markReplay, requestContext, sendItems, setLocation, type App, type RouteDeps } from '../../route-context.js';
import { PostHeaders, RequiredText } from '../../../contract/common.js';
import { DebitRecord, DebitRequest } from '../../../contract/recurring.js';
import { debitExample } from '../../schemas/recurring-examples.js';
import { BODY_ERRORS, envelopeResponse, errorResponses, ResponseHeaders } from '../../schemas/responses.js';

/** POST /mandates/{mandateId}/debits (extension): one debit, for partners that schedule themselves. */
export default async function postMandateDebitRoute(app: App, { config, recurring, enrolments }: RouteDeps) {
  app.post(
    '/mandates/:mandateId/debits',
    {
      schema: {
        tags: ['recurring donations'],
        operationId: 'createDebit',
        summary: 'Debit a mandate once',
        description:
          'One debit of `amount` on `date` (today when absent; the foundation’s time zone), e.g. accumulated ' +
          'round-ups. `transaction.id` is its natural key: a retry with it answers the debit created first (200). ' +
          'The mandate must be yours and `succeeded`. Read it later with GET /debits/{debitId}.',
        headers: PostHeaders,
        params: Type.Object({ mandateId: RequiredText(100) }),
        body: DebitRequest,
        response: {
          201: envelopeResponse('/mandates/debits', DebitRecord, 'The debit, scheduled.', debitExample, {
            ...ResponseHeaders.location,
            ...ResponseHeaders.replayed,
          }),
          200: envelopeResponse('/mandates/debits', DebitRecord, 'A retry: the debit created first.', debitExample, {
            ...ResponseHeaders.location,
            ...ResponseHeaders.replayed,
          }),
          ...errorResponses('/mandates/debits', ...BODY_ERRORS, 'FUNDRAISER_NOT_ENROLLED', 'NOT_FOUND', 'CONFLICT'),
        },
      },
      config: { envelopeMethod: '/mandates/debits' },
    },
    async (request, reply) => {
      const result = await requestOneOffDebit(
        { ...recurring, enrolments },
        request.params.mandateId,
        request.body,
        requestContext(request, config),
      );
      markReplay(reply, result.replayed);
      setLocation(reply, config, `/debits/${result.items.debitId}`);
      return sendItems(request, reply, result.items, result.status);
    },
  );
}
