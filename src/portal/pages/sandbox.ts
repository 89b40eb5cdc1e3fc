import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { field, param } from '../../console/route-context.js';
import type { Notice } from '../../console/route-context.js';
import { csrfField, dataTable, detailList } from '../../console/views/components.js';
import { may } from '../../domain/portal-roles.js';
import type { App } from '../../http/route-context.js';
import { NotFoundError, OperatorError } from '../../services/operators/operator-errors.js';
import {
  advancePartnerSandboxClock,
  partnerSandboxClock,
  partnerSandboxReceipts,
} from '../../services/portal/sandbox.js';
import { sandboxTestAccounts } from '../../services/sandbox/demo-data.js';
import { statusOf } from '../../console/pages/error-page.js';
import { portalContext, portalSessionOf, type PortalDeps, type PortalPage } from '../route-context.js';
import { sendPage } from '../views/layout.js';
import { notFoundPage } from './error-page.js';

/**
 * Sandbox (outside production only, as the API's /sandbox routes: not served where there is no payment simulator):
 * the partner's sandbox clock and its advance (the API's service and limits), the test fundraisers, and a
 * donation's sample receipts with their PDFs. Another partner's donation answers like an unknown one.
 */
export const sandboxPages: PortalPage = (app, deps) => {
  if (!deps.recurring.simulator) return;
  const area = { portalArea: 'sandbox' as const };
  void app.register(async (scope: App) => {
    scope.addHook('onRoute', (route) => void (route.config = { ...route.config, ...area }));
    scope.get('/sandbox', (request, reply) => sandboxPage(deps, request, reply));
    scope.post('/sandbox/clock/advance', async (request, reply) => {
      try {
        const moved = await advancePartnerSandboxClock(
          portalContext(request, deps),
          deps.recurring,
          field(request.body, 'duration'),
        );
        const text =
          `Your sandbox clock is now ${moved.now}: ${moved.debitsCreated} debit(s) created, ` +
          `${moved.triesSubmitted} submitted, ${moved.paymentsSettled} settled.`;
        return sandboxPage(deps, request, reply, { kind: 'ok', text });
      } catch (err) {
        if (!(err instanceof OperatorError)) throw err;
        return sandboxPage(deps, request, reply, { kind: 'error', text: err.message }, statusOf(err));
      }
    });
    scope.get('/sandbox/receipts', (request, reply) => receiptsPage(deps, request, reply));
    scope.get<AttachmentParams>(
      '/sandbox/receipts/:reference/messages/:message/attachments/:attachment',
      (request, reply) => attachment(deps, request, reply),
    );
  });
};

type AttachmentParams = { Params: { reference: string; message: string; attachment: string } };

async function sandboxPage(
  deps: PortalDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  notice: Notice = null,
  status = 200,
) {
  const session = portalSessionOf(request);
  const clock = await partnerSandboxClock(portalContext(request, deps), deps.recurring);
  const body = html`<h2>Your sandbox clock</h2>
    !${detailList([
      ['Sandbox time', clock.now],
      ['Its date', clock.today],
      ['Ahead of the real clock by (seconds)', clock.aheadBySeconds],
    ])}
    !${
      may(session.role, 'change', 'sandbox')
        ? html`<form class="card narrow" method="post" action="/portal/sandbox/clock/advance">
            !${csrfField(session)}
            <p>
              <label for="duration">Move it forward by (ISO 8601 duration, at most 5 years: P1M, P7D, PT12H)</label
              ><input id="duration" name="duration" required maxlength="40" placeholder="P1M" />
            </p>
            <p><button type="submit">Advance the clock</button></p>
          </form>`
        : ''
    }
    <h2>Test accounts</h2>
    !${dataTable(
      sandboxTestAccounts(),
      [
        { header: 'Member number', text: (a) => a.memberNumber },
        { header: 'CRM id', text: (a) => a.crmId },
        { header: 'Name', text: (a) => a.name },
        { header: 'Channels', text: (a) => (a.products.length === 0 ? 'none' : a.products.join('; ')) },
      ],
      { caption: 'Fundraisers you can use in the sandbox', empty: 'No test accounts.' },
    )}
    <h2>Sample receipts</h2>
    !${receiptForm('')}`;
  return sendPage(reply, status, { title: 'Sandbox', section: 'sandbox', session, notice }, body);
}

const receiptForm = (value: string) =>
  html`<form class="filters" method="get" action="/portal/sandbox/receipts" role="search">
    <p>
      <label for="donation">Donation reference id</label
      ><input id="donation" name="donation" required maxlength="64" value="${value}" />
    </p>
    <p><button type="submit">Show its receipts</button></p>
  </form>`;

async function receiptsPage(deps: PortalDeps, request: FastifyRequest, reply: FastifyReply) {
  const session = portalSessionOf(request);
  const reference = param(request, 'donation');
  const options = { title: 'Sample receipts', section: 'sandbox' as const, session };
  let found: Awaited<ReturnType<typeof partnerSandboxReceipts>>;
  try {
    found = await partnerSandboxReceipts(portalContext(request, deps), reference);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    const notice = { kind: 'error' as const, text: err.message };
    return sendPage(reply, 404, { ...options, notice }, receiptForm(reference));
  }
  const base = `/portal/sandbox/receipts/${encodeURIComponent(found.donationReferenceId)}`;
  const body = html`!${receiptForm(reference)}
    !${dataTable(
      found.receipts,
      [
        { header: 'Number', text: (r) => r.number },
        { header: 'Status', text: (r) => r.status },
        { header: 'AUD', text: (r) => r.amount, numeric: true },
        { header: 'Gift date', text: (r) => r.giftDate },
        { header: 'Issued', text: (r) => r.issuedAt },
        { header: 'Replaces', text: (r) => r.replaces },
      ],
      { caption: `Receipts of ${found.donationReferenceId}`, empty: 'No receipt yet: the donation is not settled.' },
    )}
    <h2>What the donor would get</h2>
    <ul class="links">
      !${found.messages.map(
        (m, i) =>
          html`<li>
            ${m.subject}
            !${m.attachments.map(
              (a, j) => html` · <a href="${base}/messages/${i}/attachments/${j}" download>${a.filename}</a>`,
            )}
          </li>`,
      )}
    </ul>`;
  return sendPage(reply, 200, options, body);
}

async function attachment(deps: PortalDeps, request: FastifyRequest<AttachmentParams>, reply: FastifyReply) {
  const { reference, message, attachment: index } = request.params;
  let file;
  try {
    const found = await partnerSandboxReceipts(portalContext(request, deps), reference);
    file = found.messages[Number(message)]?.attachments[Number(index)];
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
  if (!file) return notFoundPage(request, reply);
  return reply
    .type(file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`)
    .send(Buffer.from(file.contentBase64, 'base64'));
}
