import { Type } from '@sinclair/typebox';
import { BATCH_STATUSES } from '../../../domain/remittance-outcomes.js';
import { DEFAULT_BATCH_PAGE, listRemittanceReports } from '../../../services/reconciliation/list-remittances.js';
import { createPageCursors } from '../../../services/reconciliation/page-cursor.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders } from '../../../contract/common.js';
import { batchListExample } from '../../schemas/examples.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { BatchSummary, Cursor, Limit, NextCursor, StringEnum } from '../../../contract/remittance-report.js';
import { requirePrincipal } from '../../types.js';

const MAX_BATCH_PAGE = 1000;

const Query = Type.Object({
  status: Type.Optional(StringEnum(BATCH_STATUSES, { description: 'Only batches with this status.' })),
  receivedFrom: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Only batches received at or after this instant (ISO 8601).',
      examples: ['2026-11-01T00:00:00Z'],
    }),
  ),
  receivedTo: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Only batches received before this instant (ISO 8601, exclusive).',
      examples: ['2026-12-01T00:00:00+10:00'],
    }),
  ),
  limit: Type.Optional(Limit(MAX_BATCH_PAGE, DEFAULT_BATCH_PAGE, 'Batches')),
  cursor: Type.Optional(Cursor),
});

const BatchList = Type.Object({
  batches: Type.Array(BatchSummary, { description: 'Newest first; each is the report without its entries.' }),
  nextCursor: NextCursor,
});

/** GET /remittances (added to the contract): the calling partner's batches, to find one whose id was lost. */
export default async function listRemittancesRoute(app: App, { db, config }: RouteDeps) {
  const cursors = createPageCursors(config.CURSOR_SECRET);
  app.get(
    '/remittances',
    {
      schema: {
        tags: ['remittances'],
        operationId: 'listRemittances',
        summary: "List the calling partner's remittance batches",
        description:
          "The calling partner's batches in its environment, newest first, with status, times and counts (no " +
          "entries: read those with GET /remittances/{batchId}). Another partner's batches never appear.",
        headers: RequestHeaders,
        querystring: Query,
        response: {
          200: envelopeResponse('/remittance', BatchList, 'A page of your batches, newest first.', batchListExample),
          ...errorResponses('/remittance'),
        },
      },
      config: { envelopeMethod: '/remittance' },
    },
    async (request, reply) => {
      const query = { ...request.query, limit: request.query.limit ?? DEFAULT_BATCH_PAGE };
      const page = await listRemittanceReports(db, cursors, requirePrincipal(request.principal), query);
      return sendItems(request, reply, page);
    },
  );
}
