import { Type } from '@sinclair/typebox';
import { validateFundraiser } from '../../../services/accounts.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders, RequiredText, SourceChannel, standardErrors, SuccessEnvelope } from '../../schemas/common.js';

const FundraiserSummary = Type.Object({
  name: Type.String(),
  fundraiserId: Type.String(),
  productEnrollmentId: Type.String(),
  status: Type.String({ examples: ['Enrollment Validated'] }),
});

/** GET /fundraisers (section 4.4): does the fundraiser have an active enrolment with the channel? */
export default async function getFundraisersRoute(app: App, { db }: RouteDeps) {
  app.get('/fundraisers', {
    schema: {
      tags: ['fundraisers'],
      summary: 'Validate fundraiser enrolment',
      description: 'Call before posting a donation or creating a mandate. 400 FUNDRAISER:VALIDATION when the fundraiser has no active enrolment with the channel.',
      headers: RequestHeaders,
      querystring: Type.Object({ channel: SourceChannel, id: RequiredText(64, { description: 'Member number or CRM id.' }) }),
      response: { 200: SuccessEnvelope('/fundraisers', FundraiserSummary), ...standardErrors },
    },
    config: { envelopeMethod: '/fundraisers', channelFrom: 'query' },
  }, async (request, reply) => sendItems(request, reply, await validateFundraiser(db, request.query.id, request.query.channel)));
}
