import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';
import { correctDonor } from '../../services/operators/receipt-correction.js';
import {
  receiptPdfOf,
  resendReceipt,
  showReceipt,
  voidByOperator,
  type ReceiptDetail,
} from '../../services/operators/receipts.js';
import { field, operatorContext, sessionOf, type ConsolePage } from '../route-context.js';
import { changeRoute, type ShowPage } from '../views/change-route.js';
import { Markup, canChange, csrfField, dataTable, detailList, link, readOnlyNote } from '../views/components.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';

/**
 * One receipt of the register (docs/receipts.md, "Operators"): what it says, the messages about its donation, its
 * PDF, and for admins resend and void. Every view and download is audited (the services do it).
 */
export const receiptPages: ConsolePage = (app, deps) => {
  app.get<Numbered>('/receipts/:number', (request, reply) => receiptPage(deps, request, reply));
  app.get<Numbered>('/receipts/:number/pdf', async (request, reply) => {
    const pdf = await receiptPdfOf(operatorContext(request, deps), request.params.number);
    return reply
      .type(pdf.contentType)
      .header('content-disposition', `attachment; filename="${pdf.filename}"`)
      .header('cache-control', 'no-store')
      .send(pdf.content);
  });
  changeRoute<Numbered['Params'], { number: string }>(app, deps, '/receipts/:number/resend', {
    run: (request) => resendReceipt(operatorContext(request, deps), request.params.number),
    show: receiptPage,
    done: ({ number }) => `Receipt ${number} is queued to its donor again.`,
  });
  changeRoute<Numbered['Params'], { number: string }>(app, deps, '/receipts/:number/correct', {
    run: (request) => correctDonor(operatorContext(request, deps), request.params.number, correctionOf(request.body)),
    show: receiptPage,
    // The replacement's page: the receipt that was corrected is void.
    done: ({ number }, _request, reply) => reply.redirect(`/console/receipts/${encodeURIComponent(number)}`, 303),
  });
  changeRoute<Numbered['Params'], { number: string }>(app, deps, '/receipts/:number/void', {
    run: (request) =>
      voidByOperator(operatorContext(request, deps), request.params.number, field(request.body, 'reason')),
    show: receiptPage,
    done: ({ number }) => `Receipt ${number} is void; its donor is told.`,
  });
};

type Numbered = { Params: { number: string } };

const correctionOf = (body: unknown) => ({
  firstName: field(body, 'firstName'),
  lastName: field(body, 'lastName'),
  businessName: field(body, 'businessName'),
  email: field(body, 'email'),
  reason: field(body, 'reason'),
});

const receiptPage: ShowPage<Numbered> = async (deps, request, reply, { notice, status } = {}) => {
  const session = sessionOf(request);
  const detail = await showReceipt(operatorContext(request, deps), request.params.number);
  const r = detail.receipt;
  const body = html`!${detailList([
      ['Receipt', r.number],
      ['Status', r.voidedAt ? `void since ${r.voidedAt}: ${r.voidReason ?? ''} (by ${r.voidedBy ?? '?'})` : r.status],
      ['Series', r.series],
      ['Financial year', r.financialYear],
      ['Issued', `${r.issuedAt} (${r.issueReason})`],
      [
        'Replaces',
        r.replacesNumber
          ? new Markup(link(`/console/receipts/${encodeURIComponent(r.replacesNumber)}`, r.replacesNumber))
          : null,
      ],
      [
        'Donation',
        new Markup(link(`/console/donations/${encodeURIComponent(r.donationReferenceId)}`, r.donationReferenceId)),
      ],
      ['Amount (AUD)', aud(r.amountCents)],
      ['Gift date', r.giftDate],
      ['Donor', r.donorName],
      ['Business', r.donorBusinessName],
      ['Donor e-mail', r.donorEmail],
      ['Fundraiser', `${r.fundraiserName} (${r.fundraiserId})`],
    ])}
    <p><a href="/console/receipts/${encodeURIComponent(r.number)}/pdf" download>Download the PDF</a></p>
    <h2>Messages about this donation</h2>
    !${messagesTable(detail)}!${actions(detail, session)}`;
  return sendPage(reply, status ?? 200, { title: `Receipt ${r.number}`, section: 'receipts', session, notice }, body);
};

const messagesTable = (detail: ReceiptDetail) =>
  dataTable(
    detail.messages,
    [
      { header: 'Message', text: (m) => m.kind },
      { header: 'Written', text: (m) => m.createdAt },
      { header: 'Status', text: (m) => m.status },
      { header: 'Attempts', text: (m) => m.attempts, numeric: true },
      { header: 'Why not sent', text: (m) => m.lastError },
    ],
    { caption: 'Receipts and notices, oldest first', empty: 'No message about this donation.' },
  );

function actions(detail: ReceiptDetail, session: ConsoleSession): string {
  const r = detail.receipt;
  if (r.status === 'void') return '';
  if (!canChange(session)) return readOnlyNote('receipts');
  const action = (what: string) => `/console/receipts/${encodeURIComponent(r.number)}/${what}`;
  return html`<form class="card" method="post" action="${action('resend')}">
      !${csrfField(session)}
      <p>
        <button type="submit" data-confirm="Send receipt ${r.number} to its donor again?">Resend to the donor</button>
      </p>
    </form>
    <form class="card" method="post" action="${action('void')}">
      <h3>Void this receipt</h3>
      !${csrfField(session)}
      <p>
        <label for="reason">Why (kept on the register and in the audit log; the donor is told it is void)</label
        ><input id="reason" name="reason" required maxlength="500" />
      </p>
      <p>
        <button type="submit" class="danger" data-confirm="Void receipt ${r.number}? It cannot be undone.">Void</button>
      </p>
    </form>
    !${correctionForm(r, session, action('correct'))}`;
}

const correctionForm = (r: ReceiptDetail['receipt'], session: ConsoleSession, action: string) =>
  html`<form class="card" method="post" action="${action}">
    <h3>Correct the donor</h3>
    <p>This receipt is voided and another issued for the same gift, naming the donor below, sent to this address.</p>
    !${csrfField(session)}
    <p><label for="firstName">First name</label><input id="firstName" name="firstName" required maxlength="100" /></p>
    <p><label for="lastName">Last name</label><input id="lastName" name="lastName" required maxlength="100" /></p>
    <p>
      <label for="businessName">Business name (optional)</label
      ><input id="businessName" name="businessName" maxlength="200" value="${r.donorBusinessName ?? ''}" />
    </p>
    <p>
      <label for="email">E-mail</label><input id="email" name="email" type="email" required value="${r.donorEmail}" />
    </p>
    <p>
      <label for="correction-reason">Why (kept with the correction and in the audit log)</label
      ><input id="correction-reason" name="reason" required maxlength="500" />
    </p>
    <p>
      <button type="submit" data-confirm="Void ${r.number} and issue a corrected receipt?">Correct and reissue</button>
    </p>
  </form>`;
