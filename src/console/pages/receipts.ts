import { html } from 'ghtml';
import { receiptPolicy } from '../../config/receipts.js';
import { financialYearOf, previousFinancialYear } from '../../domain/financial-year.js';
import { registerCsv, statementsOnDemand } from '../../services/operators/receipt-register.js';
import { findReceipts, searchOf, type ReceiptView } from '../../services/operators/receipts.js';
import { field, operatorContext, param, type ConsoleDeps, type ConsolePage } from '../route-context.js';
import { changeRoute } from '../views/change-route.js';
import { canChange, csrfField, link, readOnlyNote } from '../views/components.js';
import type { ConsoleSession } from '../../services/console/sessions.js';
import { listPage } from '../views/list-page.js';
import { aud } from '../views/format.js';

const LIMIT = 200;

/**
 * The receipts register (docs/receipts.md, "Operators"): one search box (a receipt number, a donation reference or
 * a donor's e-mail; every search is audited), the register of a financial year as CSV for the auditor, and the
 * admins' form that issues end-of-year statements on demand. A receipt's own page is src/console/pages/receipt.ts.
 */
export const receiptsPages: ConsolePage = (app, deps) => {
  receiptList.route(app, deps);
  app.get('/receipts/register.csv', async (request, reply) => {
    const year = param(request, 'year');
    const csv = await registerCsv(operatorContext(request, deps), { year, production: isProduction(deps) });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="receipts-register-${year}.csv"`)
      .send(csv);
  });
  changeRoute(app, deps, '/receipts/statements', {
    run: (request) =>
      statementsOnDemand(operatorContext(request, deps), {
        year: field(request.body, 'year'),
        email: field(request.body, 'email') || undefined,
        policy: receiptPolicy(deps.config),
        production: isProduction(deps),
      }),
    show: receiptList.show,
    done: ({ issued, resent }, request) =>
      `${issued} statement(s) issued and ${resent} sent again for ${field(request.body, 'year')}: they wait in the mail outbox.`,
  });
};

const isProduction = (deps: ConsoleDeps) => deps.config.APP_ENV === 'production';

/** GET /receipts: the search (audited by the service), the register's download and the statements' form. */
const receiptList = listPage<ReceiptView>({
  path: '/receipts',
  title: 'Receipts',
  section: 'receipts',
  search: true,
  submit: 'Find',
  filters: [
    {
      name: 'q',
      label: 'Receipt number, donation reference or donor e-mail',
      type: 'text',
      required: true,
      maxlength: 320,
    },
  ],
  query: async ({ ops, asked }) => {
    const q = asked('q');
    return q ? findReceipts(ops, searchOf(q, LIMIT)) : { rows: null };
  },
  columns: [
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
  caption: 'Receipts found, newest first',
  empty: 'No receipt matches.',
  below: ({ deps, session }) => {
    const current = financialYearOf(deps.now(), deps.config.FOUNDATION_TIME_ZONE);
    return html`<h2>The register</h2>
      <form class="filters" method="get" action="/console/receipts/register.csv">
        <p>
          <label for="year">Financial year</label
          ><input id="year" name="year" required pattern="[0-9]{4}-[0-9]{2}" value="${current}" />
        </p>
        <p><button type="submit">Download the register (CSV)</button></p>
      </form>
      <h2>End-of-year statements</h2>
      !${canChange(session) ? statementForm(session, previousFinancialYear(current)) : readOnlyNote('statements')}`;
  },
});

const statementForm = (session: ConsoleSession, year: string) =>
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
