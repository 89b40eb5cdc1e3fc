import { html } from 'ghtml';
import type { DonationRecord, DonationSettlement } from '../../services/operators/donations.js';
import { donationDetail, findDonations, listPartnerDonations } from '../../services/operators/donations.js';
import { InvalidInputError } from '../../services/operators/operator-errors.js';
import { reverseByOperator } from '../../services/operators/reversals.js';
import { parseTimeRange } from '../../services/operators/time-range.js';
import { reversalsSection } from './donation-reversals.js';
import { field, operatorContext, param, sessionOf, type ConsolePage } from '../route-context.js';
import { changeRoute, type ShowPage } from '../views/change-route.js';
import { Markup, detailList, link } from '../views/components.js';
import { partnerFilter } from '../views/filters.js';
import { listPage } from '../views/list-page.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';

const LIMIT = 200;

/**
 * "Where is this donation?": by reference (straight to it), by transaction id, or a partner's over dates; and on a
 * donation's page its reversals, with the admins' form that reverses it.
 */
export const donationsPages: ConsolePage = (app, deps) => {
  app.get('/donations', async (request, reply) => {
    const reference = param(request, 'reference');
    const found = reference && (await donationDetail(operatorContext(request, deps), reference).catch(() => null));
    if (found) return reply.redirect(`/console/donations/${encodeURIComponent(reference)}`, 303);
    return donationList.show(deps, request, reply);
  });
  app.get<Ref>('/donations/:reference', (request, reply) => donationPage(deps, request, reply));
  changeRoute<Ref['Params'], Awaited<ReturnType<typeof reverseByOperator>>>(
    app,
    deps,
    '/donations/:reference/reversals',
    {
      run: (request) => {
        if (field(request.body, 'confirm') !== 'yes')
          throw new InvalidInputError('Tick the confirmation to reverse: nothing was changed.');
        return reverseByOperator(operatorContext(request, deps), {
          referenceId: request.params.reference,
          amount: field(request.body, 'amount'),
          reason: field(request.body, 'reason'),
          note: field(request.body, 'note'),
        });
      },
      show: donationPage,
      done: (r) =>
        `Reversed ${aud(r.amountCents)} AUD (${r.reversalId}); the partner is told.` +
        (r.owedBack ? ' The donation was settled: the money is owed back.' : ''),
    },
  );
};

type Ref = { Params: { reference: string } };

/** GET /donations: by transaction id or donor e-mail, or a partner's over dates (a known reference was redirected). */
const donationList = listPage<DonationRecord>({
  path: '/donations',
  title: 'Donations',
  section: 'donations',
  search: true,
  submit: 'Search',
  filters: [
    { name: 'reference', label: 'Reference', type: 'text' },
    { name: 'transactionId', label: 'Transaction id', type: 'text' },
    { name: 'email', label: 'Donor e-mail', type: 'email' },
    partnerFilter(),
    { name: 'from', label: 'From (UTC day)', type: 'date' },
    { name: 'to', label: 'To (included)', type: 'date' },
  ],
  query: async ({ ops, asked }) => {
    const reference = asked('reference');
    if (reference)
      return { rows: null, summary: html`<p class="empty">No donation has the reference ${reference}.</p>` };
    const [transactionId, donorEmail, partner] = [asked('transactionId'), asked('email'), asked('partner')];
    const range = parseTimeRange(asked('from'), asked('to'));
    if (transactionId || donorEmail) return findDonations(ops, { transactionId, donorEmail, partner, limit: LIMIT });
    if (!partner) return { rows: null };
    const found = await listPartnerDonations(ops, { partner, range, limit: LIMIT });
    const cut = found.count > LIMIT ? `; the first ${LIMIT} are listed` : '';
    return {
      rows: found.donations,
      summary: html`<p>${found.count} donation(s), AUD ${aud(found.totalCents)} in all${cut}.</p>`,
    };
  },
  columns: [
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
  caption: 'Donations found',
  empty: 'No donations match.',
});

/** One donation: its facts, its settlement, and its reversals. */
const donationPage: ShowPage<Ref> = async (deps, request, reply, { notice, status } = {}) => {
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
  const title = `Donation ${d.referenceId}`;
  return sendPage(reply, status ?? 200, { title, section: 'donations', session, notice }, body);
};

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
