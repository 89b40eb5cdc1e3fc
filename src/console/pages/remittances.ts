import type { FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { BATCH_STATUSES, OUTCOMES, isException } from '../../domain/remittance-outcomes.js';
import { entriesCsv } from '../../services/reconciliation/entry-export.js';
import {
  listRemittanceBatches,
  listRemittanceEntries,
  remittanceBatchDetail,
  retryRemittanceBatch,
  type BatchSummary,
} from '../../services/reconciliation/operations.js';
import { operatorContext, param, sessionOf, type ConsolePage } from '../route-context.js';
import { canChange, csrfField, dataTable, detailList, link, query, selectField } from '../views/components.js';
import { partnerFilter } from '../views/filters.js';
import { listPage } from '../views/list-page.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';

const EXPORT_LIMIT = 100_000;

/** Remittance batches, one batch's entries with their outcomes (exceptions filter), CSV export, retry. */
export const remittancesPages: ConsolePage = (app, deps) => {
  batchList.route(app, deps);
  getRemittancesByBatchId(app, deps);
  getRemittancesByBatchIdEntriesCsv(app, deps);
  postRemittancesByBatchIdRetry(app, deps);
};

/** GET /remittances: batches newest first, by partner and status. */
const batchList = listPage({
  path: '/remittances',
  title: 'Remittances',
  section: 'remittances',
  filters: [
    partnerFilter(),
    { name: 'status', label: 'Status', type: 'select', options: BATCH_STATUSES, any: 'Any status' },
  ],
  query: ({ ops, asked }) =>
    listRemittanceBatches(ops, { partner: asked('partner'), status: asked('status'), range: {}, limit: 200 }),
  columns: [
    { header: 'Batch', cell: (b) => link(`/console/remittances/${b.batchId}`, b.batchId) },
    { header: 'Received', text: (b) => b.receivedAt },
    { header: 'Partner', text: (b) => b.partnerName },
    { header: 'Status', text: (b) => b.status },
    { header: 'Entries', text: (b) => b.entries, numeric: true },
    { header: 'Exceptions', text: (b) => b.exceptions, numeric: true },
    { header: 'AUD', text: (b) => aud(b.totalCents), numeric: true },
  ],
  caption: 'Remittance batches, newest first',
  empty: 'No batches match.',
});

/** GET /remittances/:batchId */
const getRemittancesByBatchId: ConsolePage = (app, deps) => {
  app.get<{ Params: { batchId: string } }>('/remittances/:batchId', async (request, reply) => {
    const session = sessionOf(request);
    const { batchId } = request.params;
    const filter = entryFilter(request);
    const detail = await remittanceBatchDetail(operatorContext(request, deps), batchId, {
      exceptionsOnly: filter.exceptions,
    });
    const entries = detail.report.entries.filter((e) => !filter.outcome || e.outcome === filter.outcome);
    const body = html`!${batchFacts(detail.batch)} !${entryFilterForm(batchId, filter)} !${entryTable(entries, filter)}
    !${
      canChange(session) && !detail.batch.status.startsWith('completed')
        ? html`<form class="card" method="post" action="/console/remittances/${batchId}/retry">
            !${csrfField(session)}
            <p><button type="submit">Retry reconciliation</button></p>
          </form>`
        : ''
    }`;
    return sendPage(reply, 200, { title: `Batch ${batchId.slice(0, 8)}`, section: 'remittances', session }, body);
  });
};

/** GET /remittances/:batchId/entries.csv */
const getRemittancesByBatchIdEntriesCsv: ConsolePage = (app, deps) => {
  app.get<{ Params: { batchId: string } }>('/remittances/:batchId/entries.csv', async (request, reply) => {
    const { batchId } = request.params;
    const filter = entryFilter(request);
    const rows = await listRemittanceEntries(operatorContext(request, deps), {
      batchId,
      exceptionsOnly: filter.exceptions,
      outcome: filter.outcome || undefined,
      range: {},
      limit: EXPORT_LIMIT,
    });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="remittance-${batchId}.csv"`)
      .send(entriesCsv(rows));
  });
};

/** POST /remittances/:batchId/retry */
const postRemittancesByBatchIdRetry: ConsolePage = (app, deps) => {
  app.post<{ Params: { batchId: string } }>('/remittances/:batchId/retry', async (request, reply) => {
    await retryRemittanceBatch(operatorContext(request, deps), request.params.batchId);
    return reply.redirect(`/console/remittances/${request.params.batchId}`, 303);
  });
};

function entryFilter(request: FastifyRequest) {
  const outcome = param(request, 'outcome');
  return { exceptions: param(request, 'exceptions') === '1', outcome };
}

type EntryFilter = ReturnType<typeof entryFilter>;

/** The exceptions/outcome filter of a batch's entries, and the CSV export of what it selects. */
const entryFilterForm = (batchId: string, filter: EntryFilter) =>
  html`<form class="filters" method="get" action="/console/remittances/${batchId}">
    <p>
      <label class="check"
        ><input type="checkbox" name="exceptions" value="1" !${filter.exceptions ? ' checked' : ''} /> Exceptions
        only</label
      >
    </p>
    !${selectField({ id: 'outcome', label: 'Outcome', options: OUTCOMES, chosen: filter.outcome, any: 'Any outcome' })}
    <p><button type="submit">Filter</button></p>
    <p>
      <a
        href="/console/remittances/${batchId}/entries.csv${query({ exceptions: filter.exceptions ? '1' : undefined, outcome: filter.outcome })}"
        download
        >Export these entries (CSV)</a
      >
    </p>
  </form>`;

/** A batch's entries with their outcomes. */
const entryTable = (
  entries: Awaited<ReturnType<typeof remittanceBatchDetail>>['report']['entries'],
  filter: EntryFilter,
) =>
  dataTable(
    entries,
    [
      { header: '#', text: (e) => e.index, numeric: true },
      { header: 'Bank reference', text: (e) => e.bankReferenceId },
      { header: 'AUD', text: (e) => e.amount.toFixed(2), numeric: true },
      { header: 'Donations', text: (e) => e.donationIds },
      {
        header: 'Outcome',
        cell: (e) =>
          html`<span class="outcome ${isException(e.outcome) ? 'exception' : 'ok'}">${e.outcome ?? 'pending'}</span>`,
      },
      { header: 'Detail', text: (e) => e.detail },
    ],
    {
      caption: filter.exceptions ? 'Exceptions of this batch' : 'Entries of this batch',
      empty: 'No entries match.',
    },
  );

const batchFacts = (b: BatchSummary) =>
  detailList([
    ['Batch', b.batchId],
    ['Partner', b.partnerName],
    ['Environment', b.environment],
    ['Channel', b.channel],
    ['Fundraiser', b.fundraiserId],
    ['Status', b.status],
    ['Entries / total AUD', `${b.entries} / ${aud(b.totalCents)}`],
    ['Outcomes', Object.entries(b.outcomeCounts ?? {}).map(([o, n]) => `${o}: ${n}`)],
    ['Received', b.receivedAt],
    ['Completed', b.completedAt],
    ['Last error', b.lastError],
  ]);
