import { Type } from '@sinclair/typebox';
import { validateFundraiser } from '../../../services/accounts.js';
import { sendItemsWhenKnown, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders, RequiredText, SourceChannel } from '../../../contract/common.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';

const FundraiserSummary = Type.Object({
  name: Type.String(),
  fundraiserId: Type.String(),
  productEnrollmentId: Type.String(),
  status: Type.String({ description: 'Human-readable enrolment status.', examples: ['Enrollment Validated'] }),
});

/** GET /fundraisers (section 4.4): does the fundraiser have an active enrolment with the channel? */
export default async function getFundraisersRoute(app: App, { db, enrolments }: RouteDeps) {
  app.get(
    '/fundraisers',
    {
      schema: {
        operationId: 'validateFundraiser',
        tags: ['fundraisers'],
        summary: 'Validate fundraiser enrolment',
        description:
          'Call before posting a donation or creating a mandate. 400 FUNDRAISER:VALIDATION when the fundraiser has no active enrolment with the channel.',
        headers: RequestHeaders,
        querystring: Type.Object({
          channel: SourceChannel,
          id: RequiredText(64, { description: 'Member number or CRM id.' }),
        }),
        response: {
          200: envelopeResponse('/fundraisers', FundraiserSummary, 'The fundraiser is enrolled with the channel.', {
            name: 'Riverside Junior Football Club',
            fundraiserId: '10000001',
            productEnrollmentId: 'PE-10000001-SF',
            status: 'Enrollment Validated',
          }),
          ...errorResponses('/fundraisers', 'FUNDRAISER_NOT_ENROLLED'),
        },
      },
      config: { envelopeMethod: '/fundraisers', channelFrom: 'query' },
    },
    (request, reply) =>
      sendItemsWhenKnown(request, reply, validateFundraiser(db, enrolments, request.query.id, request.query.channel)),
  );
}
