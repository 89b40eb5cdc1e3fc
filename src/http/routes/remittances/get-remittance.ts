import { Type } from '@sinclair/typebox';
import { OUTCOMES } from '../../../domain/remittance-outcomes.js';
import { createPageCursors } from '../../../services/reconciliation/page-cursor.js';
import { openRemittanceCsv } from '../../../services/reconciliation/remittance-csv.js';
import {
  DEFAULT_REPORT_PAGE,
  getRemittanceReport,
  ownerOf,
} from '../../../services/reconciliation/remittance-report.js';
import { prefersCsv } from '../../accept.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders } from '../../../contract/common.js';
import { batchReportExample } from '../../schemas/examples.js';
import { BatchReport, Cursor, Limit, StringEnum } from '../../../contract/remittance-report.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { requirePrincipal } from '../../types.js';

const MAX_REPORT_PAGE = 10_000;

const CSV_EXAMPLE =
  'index,bankReferenceId,amount,donationIds,outcome,detail\r\n' +
  '1,B2,1.00,NOPE,unknown_donation,Unknown donation ids: NOPE.\r\n' +
  `3,"'=HYPERLINK(""x"")",20.00,DON-0D5WARNCDNWHQRHK;DON-023Z4EWC5XSNVJWQ,amount_mismatch,"Entry 20.00 AUD, donations 20.50 AUD."\r\n`;

/** The JSON report's documented response, with the CSV file as a second representation. */
function withCsv<R extends { content: Record<string, unknown> }>(json: R) {
  return { ...json, content: { ...json.content, 'text/csv': { schema: Type.String(), example: CSV_EXAMPLE } } };
}

const Query = Type.Object({
  limit: Type.Optional(Limit(MAX_REPORT_PAGE, DEFAULT_REPORT_PAGE, 'Entries')),
  cursor: Type.Optional(Cursor),
  outcome: Type.Optional(
    StringEnum([...OUTCOMES, 'exceptions'], {
      description: 'Only entries with this outcome; `exceptions` is every outcome but `matched`.',
      examples: ['exceptions'],
    }),
  ),
});

/**
 * GET /remittances/{batchId} (added to the contract): the out-of-band report of a batch, for the partner that
 * posted it, a page of entries at a time; with Accept: text/csv, every entry that passes `outcome` as a CSV file.
 */
export default async function getRemittanceRoute(app: App, { db, config }: RouteDeps) {
  const cursors = createPageCursors(config.CURSOR_SECRET);
  app.get(
    '/remittances/:batchId',
    {
      schema: {
        operationId: 'getRemittanceReport',
        tags: ['remittances'],
        summary: 'Read the reconciliation report of a remittance batch (JSON pages, or CSV)',
        description:
          'Status (accepted, processing, completed, completed_with_exceptions), counts of the whole batch and a page ' +
          'of entries in index order, all read from one snapshot. Follow `nextCursor` for the next page. With ' +
          '`Accept: text/csv` the answer is a CSV file of every entry that passes `outcome` (no paging; `limit` and ' +
          '`cursor` are ignored): amounts with two decimals, donation ids joined by `;`, and any cell starting with ' +
          "=, +, -, @, a tab or a carriage return prefixed with ' so spreadsheets never run it. Errors stay JSON. " +
          'Only the partner that posted the batch can read it; any other id answers 404 FUNDRAISER:NOT_FOUND.',
        headers: RequestHeaders,
        params: Type.Object({
          batchId: Type.String({ format: 'uuid', description: 'batchId returned by POST /remittances.' }),
        }),
        querystring: Query,
        response: {
          200: withCsv(
            envelopeResponse(
              '/remittance',
              BatchReport,
              'The report (JSON), or the CSV file when Accept asks for text/csv.',
              batchReportExample,
            ),
          ),
          ...errorResponses('/remittance', 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/remittance' },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request.principal);
      const { batchId } = request.params;
      if (prefersCsv(request.headers.accept)) {
        const csv = await openRemittanceCsv(db, batchId, { owner: ownerOf(principal), outcome: request.query.outcome });
        return (
          reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="remittance-${batchId}.csv"`)
            // The typed reply knows the schema's string; a stream of that string is what is sent.
            .send(csv as unknown as string)
        );
      }
      const query = { ...request.query, limit: request.query.limit ?? DEFAULT_REPORT_PAGE };
      return sendItems(request, reply, await getRemittanceReport(db, cursors, principal, batchId, query));
    },
  );
}
