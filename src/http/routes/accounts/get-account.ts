import { Type } from '@sinclair/typebox';
import { getAccount } from '../../../services/accounts.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { ErrorEnvelope, RequestHeaders, RequiredText, SourceChannel, standardErrors, SuccessEnvelope } from '../../schemas/common.js';

const Product = Type.Object({
  name: Type.String({ description: 'Equals the channel.' }),
  description: Type.String(),
  status: Type.String({ examples: ['Activated'] }),
  logo: Type.String(),
  coverImage: Type.String(),
  donationAmounts: Type.Array(Type.Number(), { description: 'Suggested amounts in AUD.' }),
  story: Type.String(),
  campaigns: Type.Object({}, { additionalProperties: true }),
  productEnrollmentId: Type.Optional(Type.String()),
});

const AccountRecord = Type.Object({
  name: Type.String(),
  memberNumber: Type.String(),
  abn: Type.Optional(Type.String()),
  products: Type.Array(Product),
});

/** GET /accounts/{id} (section 4.9): the account with the product of the requested channel. */
export default async function getAccountRoute(app: App, { db }: RouteDeps) {
  app.get('/accounts/:id', {
    schema: {
      tags: ['accounts'],
      summary: 'Account details',
      headers: RequestHeaders,
      params: Type.Object({ id: RequiredText(64, { description: 'Member number (a CRM id is accepted too).' }) }),
      querystring: Type.Object({ channel: SourceChannel }),
      response: { 200: SuccessEnvelope('/accounts/:id', AccountRecord), ...standardErrors, 404: Type.Ref(ErrorEnvelope) },
    },
    config: { envelopeMethod: '/accounts/:id', channelFrom: 'query' },
  }, async (request, reply) => sendItems(request, reply, await getAccount(db, request.params.id, request.query.channel)));
}
