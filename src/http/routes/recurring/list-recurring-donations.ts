import { Type } from '@sinclair/typebox';
import { createPageCursors } from '../../../services/reconciliation/page-cursor.js';
import { listRecurringDonations } from '../../../services/recurring/read-plans.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders, RequiredText } from '../../../contract/common.js';
import { Cursor, Limit, NextCursor } from '../../../contract/remittance-report.js';
import { RecurringDonationRecord } from '../../../contract/recurring.js';
import { recurringDonationExample } from '../../schemas/recurring-examples.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { requirePrincipal } from '../../types.js';

const DEFAULT_PAGE = 50;

/** GET /recurring-donations?mandateId=… (extension): the partner's plans, a page at a time. */
export default async function listRecurringDonationsRoute(app: App, { config, recurring }: RouteDeps) {
  const cursors = createPageCursors(config.CURSOR_SECRET);
  app.get(
    '/recurring-donations',
    {
      schema: {
        tags: ['recurring donations'],
        operationId: 'listRecurringDonations',
        summary: 'List recurring donations',
        description:
          'Your plans, of one mandate or all, oldest first, each with its debits. An unknown or another partner’s ' +
          '`mandateId` answers 404.',
        headers: RequestHeaders,
        querystring: Type.Object({
          mandateId: Type.Optional(RequiredText(100, { description: 'Only the plans of this mandate.' })),
          limit: Type.Optional(Limit(200, DEFAULT_PAGE, 'Plans')),
          cursor: Type.Optional(Cursor),
        }),
        response: {
          200: envelopeResponse(
            '/recurring-donations',
            Type.Object({ recurringDonations: Type.Array(RecurringDonationRecord), nextCursor: NextCursor }),
            'A page of your plans.',
            { recurringDonations: [recurringDonationExample], nextCursor: null },
          ),
          ...errorResponses('/recurring-donations', 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/recurring-donations' },
    },
    async (request, reply) => {
      const query = { ...request.query, limit: request.query.limit ?? DEFAULT_PAGE };
      return sendItems(
        request,
        reply,
        await listRecurringDonations(recurring, cursors, requirePrincipal(request.principal), query),
      );
    },
  );
}
