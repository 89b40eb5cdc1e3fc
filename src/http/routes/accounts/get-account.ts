import { Type } from '@sinclair/typebox';
import { getAccount } from '../../../services/accounts.js';
import { sendItemsWhenKnown, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders, RequiredText, SourceChannel } from '../../../contract/common.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';

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
  products: Type.Array(Product, { description: 'The product activated for the channel; empty when there is none.' }),
});

/** GET /accounts/{id} (section 4.9): the account with the product activated for the requested channel. */
export default async function getAccountRoute(app: App, { db, enrolments }: RouteDeps) {
  app.get(
    '/accounts/:id',
    {
      schema: {
        operationId: 'getAccount',
        tags: ['accounts'],
        summary: 'Account details',
        description:
          'The account with the product activated for the requested channel (section 4.9). A known account with ' +
          'no activated product for the channel answers 200 with `products: []`; 404 ACCOUNT:NOT_FOUND for an unknown id.',
        headers: RequestHeaders,
        params: Type.Object({ id: RequiredText(64, { description: 'Member number (a CRM id is accepted too).' }) }),
        querystring: Type.Object({ channel: SourceChannel }),
        response: {
          200: envelopeResponse('/accounts/:id', AccountRecord, 'The account.', {
            name: 'Riverside Junior Football Club',
            memberNumber: '10000001',
            abn: '51824753556',
            products: [
              {
                name: 'Storefront App',
                description: 'Round up your order for the club',
                status: 'Activated',
                logo: 'https://example.org/assets/logo.png',
                coverImage: 'https://example.org/assets/cover.jpg',
                donationAmounts: [5, 10, 20, 50],
                story: 'Every dollar keeps junior sport affordable in our community.',
                campaigns: {},
                productEnrollmentId: 'PE-10000001-SF',
              },
            ],
          }),
          ...errorResponses('/accounts/:id', 'ACCOUNT_NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/accounts/:id', channelFrom: 'query' },
    },
    (request, reply) =>
      sendItemsWhenKnown(request, reply, getAccount(db, enrolments, request.params.id, request.query.channel)),
  );
}
