import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import {
  donationDetail,
  findDonations,
  listPartnerDonations,
  type DonationRecord,
  type DonationSettlement,
} from '../../services/operators/donations.js';
import { InvalidInputError, OperatorError } from '../../services/operators/operator-errors.js';
import { listPartners } from '../../services/operators/partners.js';
import { reverseByOperator } from '../../services/operators/reversals.js';
import { parseTimeRange } from '../../services/operators/time-range.js';
import { reversalsSection } from './donation-reversals.js';
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
import { Markup, dataTable, detailList, link, selectField } from '../views/components.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';

const LIMIT = 200;

/**
 * "Where is this donation?": by reference (straight to it), by transaction id, or a partner's over dates; and on a
 * donation's page its reversals, with the admins' form that reverses it.
 */
export const donationsPages: ConsolePage = (app, deps) => {
  getDonations(app, deps);
  app.get<{ Params: { reference: string } }>('/donations/:reference', (request, reply) =>
    donationPage(deps, request, reply, null, 200),
  );
  postDonationReversal(app, deps);
};

/** GET /donations */
const getDonations: ConsolePage = (app, deps) => {
  app.get('/donations', async (request, reply) => {
    const reference = param(request, 'reference');
    if (reference) {
      const found = await donationDetail(operatorContext(request, deps), reference).catch(() => null);
      if (found) return reply.redirect(`/console/donations/${encodeURIComponent(reference)}`, 303);
    }
    let results = '';
    let notice: { kind: 'error'; text: string } | null = null;
    let status = 200;
    try {
      results = reference
        ? html`<p class="empty">No donation has the reference ${reference}.</p>`
        : await search(request, deps);
    } catch (err) {
      if (!(err instanceof OperatorError)) throw err;
      notice = { kind: 'error', text: err.message };
      status = statusOf(err);
    }
    const partners = await listPartners(operatorContext(request, deps));
    return sendPage(
      reply,
      status,
      { title: 'Donations', section: 'donations', session: sessionOf(request), notice },
      html`!${searchForm(
        request,
        partners.map((p) => p.name),
      )}!${results}`,
    );
  });
};

/** POST /donations/:reference/reversals: the donation's page again, with what happened. */
const postDonationReversal: ConsolePage = (app, deps) => {
  app.post<{ Params: { reference: string } }>('/donations/:reference/reversals', async (request, reply) => {
    const outcome = await attempt(
      () => {
        if (field(request.body, 'confirm') !== 'yes')
          throw new InvalidInputError('Tick the confirmation to reverse: nothing was changed.');
        return reverseByOperator(operatorContext(request, deps), {
          referenceId: request.params.reference,
          amount: field(request.body, 'amount'),
          reason: field(request.body, 'reason'),
          note: field(request.body, 'note'),
        });
      },
      (notice, status) => donationPage(deps, request, reply, notice, status),
    );
    if ('shown' in outcome) return outcome.shown;
    const r = outcome.done;
    const text =
      `Reversed ${aud(r.amountCents)} AUD (${r.reversalId}); the partner is told.` +
      (r.owedBack ? ' The donation was settled: the money is owed back.' : '');
    return donationPage(deps, request, reply, { kind: 'ok', text }, 200);
  });
};

/** One donation: its facts, its settlement, and its reversals. */
async function donationPage(
  deps: ConsoleDeps,
  request: FastifyRequest<{ Params: { reference: string } }>,
  reply: FastifyReply,
  notice: Notice,
  status: number,
) {
  const session = sessionOf(request);
  const detail = await donationDetail(operatorContext(request, deps), request.params.reference);
  const { donation: d, settlement } = detail;
  const body = html`!${detailList([
      ['Reference', d.referenceId],
      ['Received', d.createdAt],
      ['Partner', d.partnerName],
      ['Channel', d.channel],
      ['Environment', `${d.environment}${d.isLive ? ' (live)' : ''}`],
      ['Amount (AUD)', aud(d.amountCents)],
      ['Transaction id', d.transactionId],
      ['Transaction date', d.transactionDate],
      ['Fundraiser', `${d.accountName} (${d.memberNumber})`],
      ['Donor', d.donorName],
      ['Donor e-mail', d.donorEmail],
      ['Donor mobile', d.donorMobile],
      ['Postal code', d.postalCode],
      ['Correlation id', d.correlationId],
    ])}
    <h2>Settlement</h2>
    !${settlementSection(settlement)}!${reversalsSection(detail, session)}`;
  return sendPage(reply, status, { title: `Donation ${d.referenceId}`, section: 'donations', session, notice }, body);
}

async function search(request: FastifyRequest, deps: ConsoleDeps): Promise<string> {
  const ctx = operatorContext(request, deps);
  const transactionId = param(request, 'transactionId') || undefined;
  const donorEmail = param(request, 'email') || undefined;
  const partner = param(request, 'partner') || undefined;
  const range = parseTimeRange(param(request, 'from') || undefined, param(request, 'to') || undefined);
  if (transactionId || donorEmail)
    return donationsTable(await findDonations(ctx, { transactionId, donorEmail, partner, limit: LIMIT }));
  if (partner) {
    const found = await listPartnerDonations(ctx, { partner, range, limit: LIMIT });
    return html`<p>
        ${found.count} donation(s), AUD ${aud(found.totalCents)} in
        all${found.count > LIMIT ? `; the first ${LIMIT} are listed` : ''}.
      </p>
      !${donationsTable(found.donations)}`;
  }
  return '';
}

const donationsTable = (rows: DonationRecord[]) =>
  dataTable(
    rows,
    [
      {
        header: 'Reference',
        cell: (d) => link(`/console/donations/${encodeURIComponent(d.referenceId)}`, d.referenceId),
      },
      { header: 'Received', text: (d) => d.createdAt },
      { header: 'Partner', text: (d) => d.partnerName },
      { header: 'Channel', text: (d) => d.channel },
      { header: 'Transaction id', text: (d) => d.transactionId },
      { header: 'AUD', text: (d) => aud(d.amountCents), numeric: true },
    ],
    { caption: 'Donations found', empty: 'No donations match.' },
  );

function searchForm(request: FastifyRequest, partners: string[]): string {
  const value = (name: string) => param(request, name);
  const chosen = value('partner');
  return html`<form class="filters" method="get" action="/console/donations" role="search">
    <p>
      <label for="reference">Reference</label><input id="reference" name="reference" value="${value('reference')}" />
    </p>
    <p>
      <label for="transactionId">Transaction id</label
      ><input id="transactionId" name="transactionId" value="${value('transactionId')}" />
    </p>
    <p>
      <label for="email">Donor e-mail</label><input id="email" name="email" type="email" value="${value('email')}" />
    </p>
    !${selectField({ id: 'partner', label: 'Partner', options: partners, chosen, any: 'Any partner' })}
    <p><label for="from">From (UTC day)</label><input id="from" name="from" type="date" value="${value('from')}" /></p>
    <p><label for="to">To (included)</label><input id="to" name="to" type="date" value="${value('to')}" /></p>
    <p><button type="submit">Search</button></p>
  </form>`;
}

/** How the donation was settled: by a remittance entry (with a link to its batch), or by the debit that collected it. */
function settlementSection(settlement: DonationSettlement | null): string {
  if (!settlement) return html`<p>Not settled by any remittance yet.</p>`;
  if (settlement.by === 'debit')
    return detailList([
      [
        'Collected by debit',
        new Markup(link(`/console/debits/${encodeURIComponent(settlement.debitId)}`, settlement.debitId)),
      ],
      ['Amount (AUD)', aud(settlement.amountCents)],
      ['Settled', settlement.settledAt],
    ]);
  return html`!${detailList([
      ['Bank reference', settlement.bankReferenceId],
      ['Batch', settlement.batchId],
      ['Entry', settlement.entryIndex],
      ['Amount (AUD)', aud(settlement.amountCents)],
      ['Settled', settlement.settledAt],
    ])}
    <p>!${link(`/console/remittances/${settlement.batchId}`, 'Open the remittance batch')}</p>`;
}
