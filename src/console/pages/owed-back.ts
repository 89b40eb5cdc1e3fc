import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';
import { listOwedBack, owedBackCsv, type OwedBack, type OwedReversal } from '../../services/operators/owed-back.js';
import { listPartners } from '../../services/operators/partners.js';
import { markRepaid } from '../../services/operators/reversals.js';
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
import { canChange, csrfField, dataTable, link, query, readOnlyNote, selectField } from '../views/components.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';

const LIMIT = 500;
/** The file holds everything owed: it is what finance pays. */
const EXPORT_LIMIT = 1_000_000;

/**
 * Money owed back, for finance (docs/reversals.md, "Operators"): reversals made after settlement and not yet repaid,
 * oldest first, by partner, with totals and a CSV download; an admin marks one repaid with a note. The same services
 * as `fundraiser-admin reversals`.
 */
export const owedBackPages: ConsolePage = (app, deps) => {
  app.get('/reversals/owed', (request, reply) => owedPage(deps, request, reply, null, 200));
  app.get('/reversals/owed.csv', async (request, reply) => {
    const partner = param(request, 'partner') || undefined;
    const owed = await listOwedBack(operatorContext(request, deps), { partner, limit: EXPORT_LIMIT });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="owed-back.csv"')
      .send(owedBackCsv(owed));
  });
  postRepaid(app, deps);
};

/** POST /reversals/:id/repaid: the list again, with what happened. */
const postRepaid: ConsolePage = (app, deps) => {
  app.post<{ Params: { id: string } }>('/reversals/:id/repaid', async (request, reply) => {
    const outcome = await attempt(
      () => markRepaid(operatorContext(request, deps), request.params.id, field(request.body, 'note')),
      (notice, status) => owedPage(deps, request, reply, notice, status),
    );
    if ('shown' in outcome) return outcome.shown;
    const r = outcome.done;
    const text = `Reversal ${r.reversalId} (${aud(r.amountCents)} AUD to ${r.partnerName}) is marked repaid.`;
    return owedPage(deps, request, reply, { kind: 'ok', text }, 200);
  });
};

async function owedPage(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  notice: Notice,
  status: number,
) {
  const session = sessionOf(request);
  const ctx = operatorContext(request, deps);
  const partner = param(request, 'partner');
  const [owed, partners] = await Promise.all([
    listOwedBack(ctx, { partner: partner || undefined, limit: LIMIT }),
    listPartners(ctx),
  ]);
  const filters = html`<form class="filters" method="get" action="/console/reversals/owed">
    !${selectField({ id: 'partner', label: 'Partner', options: partners.map((p) => p.name), chosen: partner, any: 'Any partner' })}
    <p><button type="submit">Show</button></p>
    <p><a href="/console/reversals/owed.csv${query({ partner })}" download>Download as CSV</a></p>
  </form>`;
  const body = html`!${filters}!${totalsTable(owed)}!${canChange(session) ? '' : readOnlyNote('what is owed back')}
  !${owedTable(owed.reversals, session, partner)}`;
  return sendPage(reply, status, { title: 'Owed back', section: 'owed', session, notice }, body);
}

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

const owedTable = (rows: OwedReversal[], session: ConsoleSession, partner: string) =>
  dataTable(
    rows,
    [
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
    ],
    { caption: 'Reversals owed back, oldest first', empty: 'Nothing is owed back.' },
  );

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
