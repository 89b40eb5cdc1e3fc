import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { dataTable, detailList, link } from '../../console/views/components.js';
import { aud } from '../../console/views/format.js';
import { PLAN_STATUSES } from '../../domain/recurring.js';
import { DEBIT_VIEWS } from '../../infrastructure/repositories/recurring-admin.js';
import { NotFoundError } from '../../services/operators/operator-errors.js';
import {
  partnerBatchCsv,
  partnerBatchReport,
  partnerBatches,
  partnerDebits,
  partnerOwedBack,
  partnerPlans,
  REPORT_PAGE_ENTRIES,
} from '../../services/portal/money.js';
import { createPageCursors } from '../../services/reconciliation/page-cursor.js';
import type { App } from '../../http/route-context.js';
import { portalContext, portalSessionOf, type PortalDeps, type PortalPage } from '../route-context.js';
import { portalListPage, sendPage } from '../views/layout.js';
import { notFoundPage } from './error-page.js';

/**
 * Money (read-only): the partner's remittance batches with their status and totals, a batch's report (and its CSV,
 * the API's file), the funds received for each entry, the reversals and what is owed back, its plans and debits.
 * Nothing here changes anything, so every route is a GET of the `money` area.
 */
const tabs = html`<p class="tabs">
  <a href="/portal/money">Remittances</a> · <a href="/portal/money/reversals">Reversals and owed back</a> ·
  <a href="/portal/money/plans">Plans</a> · <a href="/portal/money/debits">Debits</a>
</p>`;

type BatchRow = Awaited<ReturnType<typeof partnerBatches>>[number];
type Reversal = Awaited<ReturnType<typeof partnerOwedBack>>['reversals'][number];
type Plan = Awaited<ReturnType<typeof partnerPlans>>[number];
type Debit = Awaited<ReturnType<typeof partnerDebits>>[number];

const batches = portalListPage<BatchRow>({
  path: '/money',
  title: 'Money',
  section: 'money',
  filters: [],
  above: () => tabs,
  query: ({ ops, deps }) => partnerBatches(ops, createPageCursors(deps.config.CURSOR_SECRET)),
  caption: 'Your remittance batches, newest first',
  empty: 'No remittance batches yet.',
  columns: [
    { header: 'Batch', cell: (b) => link(`/portal/money/batches/${b.batchId}`, b.batchId) },
    { header: 'Received', text: (b) => b.receivedAt },
    { header: 'Status', text: (b) => b.status },
    { header: 'Entries', text: (b) => b.counts.entries, numeric: true },
    { header: 'Exceptions', text: (b) => b.counts.exceptions, numeric: true },
    { header: 'Total AUD', text: (b) => b.totalAmount.toFixed(2), numeric: true },
  ],
});

const reversals = portalListPage<Reversal>({
  path: '/money/reversals',
  title: 'Reversals and owed back',
  section: 'money',
  filters: [],
  above: () => tabs,
  query: async ({ ops }) => {
    const owed = await partnerOwedBack(ops);
    const summary = html`<p class="total">
      You owe back ${aud(owed.totalCents)} for ${owed.count} reversed donation(s) not yet repaid.
    </p>`;
    return { rows: owed.reversals, summary };
  },
  caption: 'Reversed donations not yet repaid, oldest first',
  empty: 'Nothing is owed back.',
  columns: [
    { header: 'Donation', text: (r) => r.donationReferenceId },
    { header: 'Fundraiser', text: (r) => r.fundraiserId },
    { header: 'AUD', text: (r) => aud(r.amountCents), numeric: true },
    { header: 'Reason', text: (r) => r.reason },
    { header: 'Reversed', text: (r) => r.createdAt },
    { header: 'Days', text: (r) => r.ageDays, numeric: true },
  ],
});

const plans = portalListPage<Plan>({
  path: '/money/plans',
  title: 'Recurring plans',
  section: 'money',
  filters: [{ name: 'status', label: 'Status', type: 'select', options: PLAN_STATUSES, any: 'Any status' }],
  above: () => tabs,
  query: ({ ops, asked }) => partnerPlans(ops, asked('status')),
  caption: 'Your recurring donation plans',
  empty: 'No plans match.',
  columns: [
    { header: 'Plan', text: (p) => p.id },
    { header: 'Fundraiser', text: (p) => p.fundraiserId },
    { header: 'AUD', text: (p) => aud(p.amountCents), numeric: true },
    { header: 'Frequency', text: (p) => p.frequency },
    { header: 'Status', text: (p) => p.status },
    { header: 'Next due', text: (p) => p.nextDueDate },
    { header: 'Failed in a row', text: (p) => p.failedInARow, numeric: true },
  ],
});

const debits = portalListPage<Debit>({
  path: '/money/debits',
  title: 'Debits',
  section: 'money',
  filters: [{ name: 'view', label: 'Debits', type: 'select', options: DEBIT_VIEWS, fallback: 'upcoming' }],
  above: () => tabs,
  query: ({ ops, deps, values }) => partnerDebits(ops, values.view || 'upcoming', deps.config.FOUNDATION_TIME_ZONE),
  caption: (view) => `Your debits: ${view.values.view || 'upcoming'}`,
  empty: 'No debits in this view.',
  columns: [
    { header: 'Debit', text: (d) => d.id },
    { header: 'Plan', text: (d) => d.planId },
    { header: 'Due', text: (d) => d.dueDate },
    { header: 'AUD', text: (d) => aud(d.amountCents), numeric: true },
    { header: 'Status', text: (d) => d.status },
    { header: 'Attempts', text: (d) => d.attempts, numeric: true },
    { header: 'Failure', text: (d) => d.failureMessage ?? d.failureCode },
    { header: 'Donation', text: (d) => d.donationReferenceId },
  ],
});

type BatchParams = { Params: { batchId: string } };

export const moneyPages: PortalPage = (app, deps) => {
  const area = { portalArea: 'money' as const };
  void app.register(async (scope: App) => {
    scope.addHook('onRoute', (route) => void (route.config = { ...route.config, ...area }));
    for (const page of [batches, reversals, plans, debits]) page.route(scope, deps);
    scope.get<BatchParams>('/money/batches/:batchId', (request, reply) => batchPage(deps, request, reply));
    scope.get<BatchParams>('/money/batches/:batchId/report.csv', async (request, reply) => {
      try {
        const csv = await partnerBatchCsv(portalContext(request, deps), request.params.batchId);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="remittance-${request.params.batchId}.csv"`)
          .send(csv);
      } catch (err) {
        if (err instanceof NotFoundError) return notFoundPage(request, reply);
        throw err;
      }
    });
  });
};

async function batchPage(deps: PortalDeps, request: FastifyRequest<BatchParams>, reply: FastifyReply) {
  const session = portalSessionOf(request);
  const cursors = createPageCursors(deps.config.CURSOR_SECRET);
  let report: Awaited<ReturnType<typeof partnerBatchReport>>;
  try {
    report = await partnerBatchReport(portalContext(request, deps), cursors, request.params.batchId);
  } catch (err) {
    if (err instanceof NotFoundError) return notFoundPage(request, reply);
    throw err;
  }
  const body = html`!${tabs}
    !${detailList([
      ['Batch', report.batchId],
      ['Status', report.status],
      ['Channel', report.channel],
      ['Fundraiser', report.fundraiserId],
      ['Total AUD', report.totalAmount.toFixed(2)],
      [
        'Entries',
        `${report.counts.entries} (${report.counts.matched} matched, ${report.counts.exceptions} exceptions)`,
      ],
      ['Reversed AUD', report.reversedAmount.toFixed(2)],
      ['Owed back AUD', report.owedBack.toFixed(2)],
      ['Received', report.receivedAt],
      ['Completed', report.completedAt],
    ])}
    <p><a href="/portal/money/batches/${report.batchId}/report.csv" download>Download the report (CSV)</a></p>
    !${dataTable(
      report.entries,
      [
        { header: '#', text: (e) => e.index, numeric: true },
        { header: 'Bank reference', text: (e) => e.bankReferenceId },
        { header: 'AUD', text: (e) => e.amount.toFixed(2), numeric: true },
        { header: 'Donations', text: (e) => e.donationIds.join(' ') },
        { header: 'Outcome', text: (e) => e.outcome ?? 'pending' },
        { header: 'Detail', text: (e) => e.detail },
        { header: 'Funds received', text: (e) => e.fundsReceivedAt ?? 'not yet' },
      ],
      { caption: `Entries (the first ${REPORT_PAGE_ENTRIES}; the CSV has them all)`, empty: 'No entries.' },
    )}`;
  return sendPage(reply, 200, { title: `Remittance batch ${report.batchId}`, section: 'money', session }, body);
}
