import { Type } from '@sinclair/typebox';
import { acceptRemittances } from '../../../services/accept-remittances.js';
import { markReplay, requestContext, sendItems, type App, type RouteDeps } from '../../route-context.js';
import { ErrorEnvelope, PostHeaders, RequiredText, SourceWithFundraiser, standardErrors, SuccessEnvelope } from '../../schemas/common.js';

export const MAX_DONATIONS_PER_ENTRY = 1000;

/** POST /remittances (section 4.8): a batch of bank-settled remittances, reconciled asynchronously. */
export default async function postRemittancesRoute(app: App, { db, config, onRemittanceBatchStored }: RouteDeps) {
  const Remittance = Type.Object({
    bankReferenceId: RequiredText(100),
    amount: Type.Number({ format: 'amount-aud', description: 'Settled amount in AUD: > 0, at most 2 decimals.' }),
    donationIds: Type.Array(RequiredText(64), { minItems: 1, maxItems: MAX_DONATIONS_PER_ENTRY, description: 'donationReferenceIds covered by this entry.' }),
  });
  const RemittancesRequest = Type.Object({
    source: SourceWithFundraiser,
    remittances: Type.Array(Remittance, { minItems: 1, maxItems: config.MAX_REMITTANCE_ENTRIES, description: `One entry per bank transaction; at most ${config.MAX_REMITTANCE_ENTRIES}.` }),
  });

  app.post('/remittances', {
    schema: {
      tags: ['remittances'],
      summary: 'Post a remittance batch',
      description: '202 once the batch is stored; reconciliation runs in the background. 406 FUNDRAISER:REMITTANCE POST when a referenced fundraiser is not enrolled.',
      headers: PostHeaders,
      body: RemittancesRequest,
      response: {
        202: SuccessEnvelope('/remittance', Type.Object({ status: Type.Literal('Request Accepted'), batchId: Type.String({ description: 'Added to the contract: the batch to look up.' }) })),
        ...standardErrors,
        406: Type.Ref(ErrorEnvelope),
        409: Type.Ref(ErrorEnvelope),
      },
    },
    config: { envelopeMethod: '/remittance', channelFrom: 'body' },
  }, async (request, reply) => {
    const result = await acceptRemittances(db, request.body, requestContext(request, config), onRemittanceBatchStored);
    markReplay(reply, result.replayed);
    return sendItems(request, reply, result.items, result.status);
  });
}
