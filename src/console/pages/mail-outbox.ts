import { mailOutbox, SENT_COUNT_DAYS, type OutboxMessage } from '../../services/operators/receipt-register.js';
import { dataTable } from '../views/components.js';
import { listPage } from '../views/list-page.js';

const LIMIT = 500;
const STATUSES = ['pending', 'held', 'failed', 'sent'] as const;

const WHAT: Record<string, string> = {
  pending: 'waiting to be sent, or to be tried again',
  held: 'kept here: nothing may send it (no SMTP_URL, or outside production without MAIL_REDIRECT_TO)',
  failed: 'refused for good by the mail server, or out of tries: not sent',
  sent: `sent in the last ${SENT_COUNT_DAYS} days (older ones are not counted)`,
};

/**
 * The mail outbox (docs/receipts.md, "Delivery"): how many messages are in each status, and those not sent (or of
 * one status) with why: held messages wait for the settings that let them leave, failed ones are permanent failures.
 */
const outbox = listPage<OutboxMessage>({
  path: '/mail',
  title: 'Mail outbox',
  section: 'mail',
  filters: [{ name: 'status', label: 'Status', type: 'select', options: STATUSES, any: 'Not sent', fallback: '' }],
  query: async ({ ops, asked }) => {
    const { counts, messages } = await mailOutbox(ops, { status: asked('status'), limit: LIMIT });
    return { rows: messages, above: countsTable(counts) };
  },
  columns: [
    { header: 'Written', text: (m) => m.created_at },
    { header: 'Kind', text: (m) => m.kind },
    { header: 'About', text: (m) => m.about },
    { header: 'Status', text: (m) => m.status },
    { header: 'Attempts', text: (m) => m.attempts, numeric: true },
    { header: 'Why not sent', text: (m) => m.last_error },
    { header: 'Sent', text: (m) => m.sent_at },
  ],
  caption: ({ values }) =>
    values.status ? `Messages ${values.status}, newest first` : 'Messages not sent, newest first',
  empty: ({ values }) => (values.status ? `No message is ${values.status}.` : 'Every message was sent.'),
});

export const mailOutboxPage = outbox.route;

const countsTable = (counts: Partial<Record<string, number>>) =>
  dataTable(
    STATUSES.map((s) => ({ status: s, count: counts[s] ?? 0 })),
    [
      { header: 'Status', text: (c) => c.status },
      { header: 'Messages', text: (c) => c.count, numeric: true },
      { header: 'Meaning', text: (c) => WHAT[c.status] },
    ],
    { caption: 'Messages by status', empty: 'No message was ever written.' },
  );
