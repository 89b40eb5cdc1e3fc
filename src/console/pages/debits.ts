import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';
import { listPartners } from '../../services/operators/partners.js';
import {
  DEBIT_VIEWS,
  listDebits,
  retryDebit,
  showDebit,
  type DebitView,
  type OperatorDebit,
} from '../../services/operators/recurring-debits.js';
import {
  attempt,
  operatorContext,
  param,
  sessionOf,
  type ConsoleDeps,
  type ConsolePage,
  type Notice,
} from '../route-context.js';
import { Markup, canChange, csrfField, dataTable, detailList, link, query, selectField } from '../views/components.js';
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
  getDebits(app, deps);
  app.get<{ Params: { id: string } }>('/debits/:id', (request, reply) => debitPage(deps, request, reply, null, 200));
  postDebitRetry(app, deps);
};

/** GET /debits */
const getDebits: ConsolePage = (app, deps) => {
  app.get('/debits', async (request, reply) => {
    const session = sessionOf(request);
    const ctx = operatorContext(request, deps);
    const chosen = param(request, 'view');
    const view: DebitView = (DEBIT_VIEWS as readonly string[]).includes(chosen) ? (chosen as DebitView) : 'failed';
    const partner = param(request, 'partner');
    const [debits, partners] = await Promise.all([
      listDebits(ctx, { view, partner: partner || undefined, limit: LIMIT }, deps.config.FOUNDATION_TIME_ZONE),
      listPartners(ctx),
    ]);
    const tabs = html`<nav aria-label="Views" class="filters">
      !${DEBIT_VIEWS.map((v) =>
        v === view
          ? html`<a href="/console/debits${query({ view: v, partner })}" aria-current="page">${v}</a>`
          : link(`/console/debits${query({ view: v, partner })}`, v),
      )}
    </nav>`;
    const filters = html`<form class="filters" method="get" action="/console/debits">
      <input type="hidden" name="view" value="${view}" />
      !${selectField({ id: 'partner', label: 'Partner', options: partners.map((p) => p.name), chosen: partner, any: 'Any partner' })}
      <p><button type="submit">Show</button></p>
    </form>`;
    const table = debitTable(debits, session, { caption: CAPTIONS[view], empty: `No ${view} debits.` });
    return sendPage(reply, 200, { title: 'Debits', section: 'debits', session }, html`!${tabs}!${filters}!${table}`);
  });
};

/** POST /debits/:id/retry: the debit's page, with the try queued or why it cannot be. */
const postDebitRetry: ConsolePage = (app, deps) => {
  app.post<{ Params: { id: string } }>('/debits/:id/retry', async (request, reply) => {
    const outcome = await attempt(
      () => retryDebit(operatorContext(request, deps), request.params.id, deps.config.FOUNDATION_TIME_ZONE),
      (notice, status) => debitPage(deps, request, reply, notice, status),
    );
    if ('shown' in outcome) return outcome.shown;
    const { attempt: next, nextAttemptOn } = outcome.done;
    const text = `Try ${next} is queued for ${nextAttemptOn}: the service submits it within seconds.`;
    return debitPage(deps, request, reply, { kind: 'ok', text }, 200);
  });
};

/** Debits with what an admin may do about each: a retry button on a failed one that can be tried again. */
export const debitTable = (
  debits: OperatorDebit[],
  session: ConsoleSession,
  options: { caption: string; empty: string },
) =>
  dataTable(
    debits,
    [
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
    ],
    options,
  );

const donationLink = (d: OperatorDebit) =>
  d.donationReferenceId
    ? link(`/console/donations/${encodeURIComponent(d.donationReferenceId)}`, d.donationReferenceId)
    : '–';

const retryForm = (d: OperatorDebit, session: ConsoleSession) =>
  html`<form class="inline" method="post" action="/console/debits/${encodeURIComponent(d.id)}/retry">
    !${csrfField(session)}<button type="submit" data-confirm="Try debit ${d.id} again today?">Retry today</button>
  </form>`;

/** One debit: its facts, with links to its plan and its donation, and the retry for admins. */
async function debitPage(
  deps: ConsoleDeps,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
  notice: Notice,
  status: number,
) {
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
  return sendPage(reply, status, { title: `Debit ${d.id}`, section: 'debits', session, notice }, body);
}
