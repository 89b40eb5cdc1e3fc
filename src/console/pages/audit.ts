import { html } from 'ghtml';
import { AuditActions, listAudit } from '../../services/operators/audit.js';
import { parseTimeRange } from '../../services/operators/time-range.js';
import { listPage } from '../views/list-page.js';

/** Actions and their families (`credential`, `credential.issue`), for the action filter. */
const families = [...new Set(Object.values(AuditActions).flatMap((a) => [a.split('.')[0]!, a]))].sort();

const PAGE = 200;

/** The audit log shared by the CLI and the console, newest first, filtered by actor, action, subject and dates. */
const audit = listPage({
  path: '/audit',
  title: 'Audit log',
  section: 'audit',
  submit: 'Filter',
  filters: [
    { name: 'actor', label: 'Who', type: 'text' },
    { name: 'action', label: 'Action', type: 'select', options: families, any: 'Any action' },
    { name: 'subject', label: 'Subject (partner, client_id, member number…)', type: 'text' },
    { name: 'from', label: 'From (UTC day)', type: 'date' },
    { name: 'to', label: 'To (included)', type: 'date' },
  ],
  // A page at a time by key (docs/decisions/0074-operators-listings-by-key.md): one entry more than shown says
  // whether there is a next page, which starts after the last entry shown.
  query: async ({ ops, asked, after }) => {
    const range = parseTimeRange(asked('from'), asked('to'));
    const entries = await listAudit(ops, {
      actor: asked('actor'),
      action: asked('action'),
      subject: asked('subject'),
      since: range.from,
      until: range.until,
      limit: PAGE + 1,
      ...(after ? { after } : {}),
    });
    const rows = entries.slice(0, PAGE);
    return { rows, next: entries.length > PAGE ? String(rows.at(-1)!.id) : null };
  },
  columns: [
    { header: 'When', text: (e) => e.at },
    { header: 'Who', text: (e) => e.actor },
    { header: 'Action', text: (e) => e.action },
    { header: 'Subject', text: (e) => e.subject },
    { header: 'Details', cell: (e) => html`<code class="details-json">${JSON.stringify(e.details)}</code>` },
  ],
  caption: `Audit entries, newest first (${PAGE} a page)`,
  empty: 'No entries match.',
});

export const auditPage = audit.route;
