import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { receiptPolicy } from '../../config/receipts.js';
import { financialYearOf, previousFinancialYear } from '../../domain/financial-year.js';
import { OperatorError } from '../../services/operators/operator-errors.js';
import { registerCsv, statementsOnDemand } from '../../services/operators/receipt-register.js';
import { findReceipts, searchOf, type ReceiptView } from '../../services/operators/receipts.js';
import { statusOf } from './error-page.js';
import {
  attempt,
  field,
  operatorContext,
  param,
  sessionOf,
  type ConsoleDeps,
  type ConsolePage,
  type Notice,
} from '../route-context.js';
import { canChange, csrfField, dataTable, link, readOnlyNote } from '../views/components.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';

const LIMIT = 200;

/**
 * The receipts register (docs/receipts.md, "Operators"): one search box (a receipt number, a donation reference or
 * a donor's e-mail; every search is audited), the register of a financial year as CSV for the auditor, and the
 * admins' form that issues end-of-year statements on demand. A receipt's own page is src/console/pages/receipt.ts.
 */
export const receiptsPages: ConsolePage = (app, deps) => {
  app.get('/receipts', (request, reply) => receiptsPage(deps, request, reply, null, 200));
  app.get('/receipts/register.csv', async (request, reply) => {
    const year = param(request, 'year');
    const csv = await registerCsv(operatorContext(request, deps), { year, production: isProduction(deps) });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="receipts-register-${year}.csv"`)
      .send(csv);
  });
  app.post('/receipts/statements', async (request, reply) => {
    const year = field(request.body, 'year');
    const outcome = await attempt(
      () =>
        statementsOnDemand(operatorContext(request, deps), {
          year,
          email: field(request.body, 'email') || undefined,
          policy: receiptPolicy(deps.config),
          production: isProduction(deps),
        }),
      (notice, status) => receiptsPage(deps, request, reply, notice, status),
    );
    if ('shown' in outcome) return outcome.shown;
    const { issued, resent } = outcome.done;
    const text = `${issued} statement(s) issued and ${resent} sent again for ${year}: they wait in the mail outbox.`;
    return receiptsPage(deps, request, reply, { kind: 'ok', text }, 200);
  });
};

const isProduction = (deps: ConsoleDeps) => deps.config.APP_ENV === 'production';

async function receiptsPage(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  notice: Notice,
  status: number,
) {
  const session = sessionOf(request);
  const q = param(request, 'q');
  let results = '';
  let shown = notice;
  let code = status;
  if (q)
    try {
      results = receiptsTable(await findReceipts(operatorContext(request, deps), searchOf(q, LIMIT)));
    } catch (err) {
      if (!(err instanceof OperatorError)) throw err;
      shown = { kind: 'error', text: err.message };
      code = statusOf(err);
    }
  const current = financialYearOf(deps.now(), deps.config.FOUNDATION_TIME_ZONE);
  const body = html`<form class="filters" method="get" action="/console/receipts" role="search">
      <p>
        <label for="q">Receipt number, donation reference or donor e-mail</label
        ><input id="q" name="q" value="${q}" required maxlength="320" />
      </p>
      <p><button type="submit">Find</button></p>
    </form>
    !${results}
    <h2>The register</h2>
    <form class="filters" method="get" action="/console/receipts/register.csv">
      <p>
        <label for="year">Financial year</label
        ><input id="year" name="year" required pattern="[0-9]{4}-[0-9]{2}" value="${current}" />
      </p>
      <p><button type="submit">Download the register (CSV)</button></p>
    </form>
    <h2>End-of-year statements</h2>
    !${canChange(session) ? statementForm(session, previousFinancialYear(current)) : readOnlyNote('statements')}`;
  return sendPage(reply, code, { title: 'Receipts', section: 'receipts', session, notice: shown }, body);
}

const receiptsTable = (rows: ReceiptView[]) =>
  dataTable(
    rows,
    [
      { header: 'Receipt', cell: (r) => link(`/console/receipts/${encodeURIComponent(r.number)}`, r.number) },
      { header: 'Status', text: (r) => r.status },
      { header: 'Issued', text: (r) => r.issuedAt },
      { header: 'AUD', text: (r) => aud(r.amountCents), numeric: true },
      { header: 'Gift date', text: (r) => r.giftDate },
      {
        header: 'Donation',
        cell: (r) => link(`/console/donations/${encodeURIComponent(r.donationReferenceId)}`, r.donationReferenceId),
      },
      { header: 'Made out to', text: (r) => r.donorBusinessName ?? r.donorName },
    ],
    { caption: 'Receipts found, newest first', empty: 'No receipt matches.' },
  );

const statementForm = (session: ReturnType<typeof sessionOf>, year: string) =>
  html`<form class="card" method="post" action="/console/receipts/statements">
    !${csrfField(session)}
    <p>
      One statement per donor e-mail, listing the receipts in force for the year’s gifts. The job issues them after 30
      June; issuing again issues only those missing. With an e-mail, only that donor’s (sent again if it exists).
    </p>
    <p>
      <label for="statement-year">Financial year</label
      ><input id="statement-year" name="year" required pattern="[0-9]{4}-[0-9]{2}" value="${year}" />
    </p>
    <p>
      <label for="statement-email">Donor e-mail (optional)</label
      ><input id="statement-email" name="email" type="email" />
    </p>
    <p><button type="submit" data-confirm="Issue the statements of ${year} now?">Issue statements</button></p>
  </form>`;
