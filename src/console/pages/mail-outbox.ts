import { html } from 'ghtml';
import { mailOutbox, type OutboxMessage } from '../../services/operators/receipt-register.js';
import { operatorContext, param, sessionOf, type ConsolePage } from '../route-context.js';
import { dataTable, selectField } from '../views/components.js';
import { sendPage } from '../views/layout.js';

const LIMIT = 500;
const STATUSES = ['pending', 'held', 'failed', 'sent'] as const;

const WHAT: Record<string, string> = {
  pending: 'waiting to be sent, or to be tried again',
  held: 'kept here: nothing may send it (no SMTP_URL, or outside production without MAIL_REDIRECT_TO)',
  failed: 'refused for good by the mail server, or out of tries: not sent',
  sent: 'sent',
};

/**
 * The mail outbox (docs/receipts.md, "Delivery"): how many messages are in each status, and those not sent (or of
 * one status) with why: held messages wait for the settings that let them leave, failed ones are permanent failures.
 */
export const mailOutboxPage: ConsolePage = (app, deps) => {
  app.get('/mail', async (request, reply) => {
    const chosen = param(request, 'status');
    const status = (STATUSES as readonly string[]).includes(chosen) ? chosen : undefined;
    const { counts, messages } = await mailOutbox(operatorContext(request, deps), { status, limit: LIMIT });
    const body = html`!${dataTable(
        STATUSES.map((s) => ({ status: s, count: counts[s] ?? 0 })),
        [
          { header: 'Status', text: (c) => c.status },
          { header: 'Messages', text: (c) => c.count, numeric: true },
          { header: 'Meaning', text: (c) => WHAT[c.status] },
        ],
        { caption: 'Messages by status', empty: 'No message was ever written.' },
      )}
      <form class="filters" method="get" action="/console/mail">
        !${selectField({ id: 'status', label: 'Status', options: STATUSES, chosen: status, any: 'Not sent' })}
        <p><button type="submit">Show</button></p>
      </form>
      !${messagesTable(messages, status)}`;
    return sendPage(reply, 200, { title: 'Mail outbox', section: 'mail', session: sessionOf(request) }, body);
  });
};

const messagesTable = (rows: OutboxMessage[], status: string | undefined) =>
  dataTable(
    rows,
    [
      { header: 'Written', text: (m) => m.created_at },
      { header: 'Kind', text: (m) => m.kind },
      { header: 'About', text: (m) => m.about },
      { header: 'Status', text: (m) => m.status },
      { header: 'Attempts', text: (m) => m.attempts, numeric: true },
      { header: 'Why not sent', text: (m) => m.last_error },
      { header: 'Sent', text: (m) => m.sent_at },
    ],
    {
      caption: status ? `Messages ${status}, newest first` : 'Messages not sent, newest first',
      empty: status ? `No message is ${status}.` : 'Every message was sent.',
    },
  );
