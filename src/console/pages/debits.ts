import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';
import {
  DEBIT_VIEWS,
  listDebits,
  retryDebit,
  showDebit,
  type DebitView,
  type OperatorDebit,
} from '../../services/operators/recurring-debits.js';
import { operatorContext, sessionOf, type ConsolePage } from '../route-context.js';
import { changeRoute, type ShowPage } from '../views/change-route.js';
import { Markup, canChange, csrfField, dataTable, detailList, link, query, type Column } from '../views/components.js';
import { partnerFilter } from '../views/filters.js';
import { listPage } from '../views/list-page.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';

const LIMIT = 200;

const CAPTIONS: Record<DebitView, string> = {
  upcoming: 'Scheduled debits due from today on (the foundation’s date), soonest first',
  failed: 'Failed debits, newest first; a retry tries one again today',
  disputed: 'Debits collected, then disputed by the account holder, newest first',
  processing: 'Debits with the bank, longest first',
};

/**
 * Debits of every partner (docs/recurring.md) in one view at a time, one debit's page, and another try of a failed
 * one for admins. The same services as `fundraiser-admin debits`.
 */
export const debitsPages: ConsolePage = (app, deps) => {
  debitList.route(app, deps);
  app.get<Id>('/debits/:id', (request, reply) => debitPage(deps, request, reply));
  changeRoute<Id['Params'], Awaited<ReturnType<typeof retryDebit>>>(app, deps, '/debits/:id/retry', {
    run: (request) => retryDebit(operatorContext(request, deps), request.params.id, deps.config.FOUNDATION_TIME_ZONE),
    show: debitPage,
    done: ({ attempt, nextAttemptOn }) =>
      `Try ${attempt} is queued for ${nextAttemptOn}: the service submits it within seconds.`,
  });
};

type Id = { Params: { id: string } };

/** GET /debits: one view at a time (tabs), by partner. */
const debitList = listPage<OperatorDebit>({
  path: '/debits',
  title: 'Debits',
  section: 'debits',
  filters: [{ name: 'view', label: 'View', type: 'hidden', options: DEBIT_VIEWS, fallback: 'failed' }, partnerFilter()],
  query: ({ ops, deps, values, asked }) =>
    listDebits(
      ops,
      { view: values.view as DebitView, partner: asked('partner'), limit: LIMIT },
      deps.config.FOUNDATION_TIME_ZONE,
    ),
  above: ({ values }) =>
    html`<nav aria-label="Views" class="filters">
      !${DEBIT_VIEWS.map((v) => {
        const href = `/console/debits${query({ view: v, partner: values.partner })}`;
        return v === values.view ? html`<a href="${href}" aria-current="page">${v}</a>` : link(href, v);
      })}
    </nav>`,
  columns: ({ session }) => debitColumns(session),
  caption: ({ values }) => CAPTIONS[values.view as DebitView],
  empty: ({ values }) => `No ${values.view} debits.`,
});

/** Debits with what an admin may do about each: a retry button on a failed one that can be tried again. */
export const debitTable = (
  debits: OperatorDebit[],
  session: ConsoleSession,
  options: { caption: string; empty: string },
) => dataTable(debits, debitColumns(session), options);

const debitColumns = (session: ConsoleSession): Column<OperatorDebit>[] => [
  { header: 'Debit', cell: (d) => link(`/console/debits/${encodeURIComponent(d.id)}`, d.id) },
  { header: 'Due', text: (d) => d.dueDate },
  { header: 'Partner', text: (d) => d.partnerName },
  { header: 'AUD', text: (d) => aud(d.amountCents), numeric: true },
  { header: 'Status', text: (d) => (d.disputedAt ? `${d.status}, disputed` : d.status) },
  { header: 'Tries', text: (d) => d.attempts, numeric: true },
  { header: 'Next try', text: (d) => d.nextAttemptOn },
  { header: 'Why', text: (d) => (d.disputedAt ? d.disputeReason : d.failureMessage) },
  { header: 'Donation', cell: (d) => donationLink(d) },
  { header: '', cell: (d) => (canChange(session) && d.retryable ? retryForm(d, session) : '') },
];

const donationLink = (d: OperatorDebit) =>
  d.donationReferenceId
    ? link(`/console/donations/${encodeURIComponent(d.donationReferenceId)}`, d.donationReferenceId)
    : '–';

const retryForm = (d: OperatorDebit, session: ConsoleSession) =>
  html`<form class="inline" method="post" action="/console/debits/${encodeURIComponent(d.id)}/retry">
    !${csrfField(session)}<button type="submit" data-confirm="Try debit ${d.id} again today?">Retry today</button>
  </form>`;

/** One debit: its facts, with links to its plan and its donation, and the retry for admins. */
const debitPage: ShowPage<Id> = async (deps, request, reply, { notice, status } = {}) => {
  const session = sessionOf(request);
  const d = await showDebit(operatorContext(request, deps), request.params.id);
  const body = html`!${detailList([
    ['Debit', d.id],
    ['Partner', `${d.partnerName} (${d.environment})`],
    [
      'Of',
      d.planId
        ? new Markup(
            html`Recurring donation !${link(`/console/recurring/${encodeURIComponent(d.planId)}`, d.planId)} (debit
            ${d.sequence ?? '?'}, ${d.planStatus ?? '–'})`,
          )
        : `A one-off debit, transaction id ${d.transactionId ?? '–'}`,
    ],
    ['Mandate', d.mandateId],
    ['Amount (AUD)', aud(d.amountCents)],
    ['Due', d.dueDate],
    ['Status', d.status],
    ['Tries', d.attempts],
    ['Next try', d.nextAttemptOn],
    ['Failure', d.failureCode ? `${d.failureMessage ?? ''} (${d.failureCode})` : null],
    ['Disputed', d.disputedAt ? `${d.disputeReason ?? ''} (${d.disputedAt.toISOString()})` : null],
    ['Submitted', d.submittedAt],
    ['Settled', d.settledAt],
    ['Donation', new Markup(donationLink(d))],
  ])}!${canChange(session) && d.retryable ? retryForm(d, session) : ''}`;
  return sendPage(reply, status ?? 200, { title: `Debit ${d.id}`, section: 'debits', session, notice }, body);
};
