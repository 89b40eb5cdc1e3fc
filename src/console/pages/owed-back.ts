import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';
import { listOwedBack, owedBackCsv, type OwedBack, type OwedReversal } from '../../services/operators/owed-back.js';
import { markRepaid } from '../../services/operators/reversals.js';
import { field, operatorContext, param, type ConsolePage } from '../route-context.js';
import { changeRoute } from '../views/change-route.js';
import { canChange, csrfField, dataTable, link, query, readOnlyNote, type Column } from '../views/components.js';
import { partnerFilter } from '../views/filters.js';
import { listPage } from '../views/list-page.js';
import { aud } from '../views/format.js';

const LIMIT = 500;
/** The file holds everything owed: it is what finance pays. */
const EXPORT_LIMIT = 1_000_000;

/**
 * Money owed back, for finance (docs/reversals.md, "Operators"): reversals made after settlement and not yet repaid,
 * oldest first, by partner, with totals and a CSV download; an admin marks one repaid with a note. The same services
 * as `fundraiser-admin reversals`.
 */
export const owedBackPages: ConsolePage = (app, deps) => {
  owedList.route(app, deps);
  app.get('/reversals/owed.csv', async (request, reply) => {
    const partner = param(request, 'partner') || undefined;
    const owed = await listOwedBack(operatorContext(request, deps), { partner, limit: EXPORT_LIMIT });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="owed-back.csv"')
      .send(owedBackCsv(owed));
  });
  changeRoute<{ id: string }, Awaited<ReturnType<typeof markRepaid>>>(app, deps, '/reversals/:id/repaid', {
    run: (request) => markRepaid(operatorContext(request, deps), request.params.id, field(request.body, 'note')),
    show: owedList.show,
    done: (r) => `Reversal ${r.reversalId} (${aud(r.amountCents)} AUD to ${r.partnerName}) is marked repaid.`,
  });
};

/** GET /reversals/owed: what is owed back, oldest first, with the totals per partner and the CSV of it all. */
const owedList = listPage<OwedReversal>({
  path: '/reversals/owed',
  title: 'Owed back',
  section: 'owed',
  filters: [partnerFilter()],
  formEnd: ({ values }) =>
    html`<p>
      <a href="/console/reversals/owed.csv${query({ partner: values.partner })}" download>Download as CSV</a>
    </p>`,
  query: async ({ ops, asked, session }) => {
    const owed = await listOwedBack(ops, { partner: asked('partner'), limit: LIMIT });
    const note = canChange(session) ? '' : readOnlyNote('what is owed back');
    return { rows: owed.reversals, summary: html`!${totalsTable(owed)}!${note}` };
  },
  columns: ({ session, values }) => owedColumns(session, values.partner ?? ''),
  caption: 'Reversals owed back, oldest first',
  empty: 'Nothing is owed back.',
});

function totalsTable(owed: OwedBack) {
  const cut = owed.count > LIMIT ? `; the oldest ${LIMIT} are listed, the CSV holds them all` : '';
  return html`<p>${`In all: ${owed.count} reversal(s), AUD ${aud(owed.totalCents)}${cut}.`}</p>
    !${dataTable(
      owed.totals,
      [
        { header: 'Partner', text: (t) => t.partnerName },
        { header: 'Environment', text: (t) => t.environment },
        { header: 'Reversals', text: (t) => t.count, numeric: true },
        { header: 'AUD', text: (t) => aud(t.totalCents), numeric: true },
      ],
      { caption: 'Owed back per partner', empty: 'Nothing is owed back.' },
    )}`;
}

const owedColumns = (session: ConsoleSession, partner: string): Column<OwedReversal>[] => [
  { header: 'Reversal', text: (r) => r.reversalId },
  { header: 'Age (days)', text: (r) => r.ageDays, numeric: true },
  { header: 'Partner', text: (r) => `${r.partnerName} (${r.environment})` },
  {
    header: 'Donation',
    cell: (r) => link(`/console/donations/${encodeURIComponent(r.donationReferenceId)}`, r.donationReferenceId),
  },
  { header: 'Fundraiser', text: (r) => `${r.accountName} (${r.fundraiserId})` },
  { header: 'AUD', text: (r) => aud(r.amountCents), numeric: true },
  { header: 'Reason', text: (r) => r.reason },
  { header: 'Asked by', text: (r) => r.requestedBy },
  { header: 'Note', text: (r) => r.note },
  { header: '', cell: (r) => (canChange(session) ? repaidForm(r, session, partner) : '') },
];

const repaidForm = (r: OwedReversal, session: ConsoleSession, partner: string) =>
  html`<form
    class="inline"
    method="post"
    action="/console/reversals/${encodeURIComponent(r.reversalId)}/repaid${query({ partner })}"
  >
    !${csrfField(session)}<label for="note-${r.reversalId}">How it was repaid</label
    ><input id="note-${r.reversalId}" name="note" required maxlength="500" />
    <button type="submit" data-confirm="Mark ${r.reversalId} repaid (${aud(r.amountCents)} AUD)?">Mark repaid</button>
  </form>`;
