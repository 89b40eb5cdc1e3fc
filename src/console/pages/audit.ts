import { html } from 'ghtml';
import { AuditActions, listAudit } from '../../services/operators/audit.js';
import { parseTimeRange } from '../../services/operators/time-range.js';
import { listPage } from '../views/list-page.js';

/** Actions and their families (`credential`, `credential.issue`), for the action filter. */
const families = [...new Set(Object.values(AuditActions).flatMap((a) => [a.split('.')[0]!, a]))].sort();

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
  query: ({ ops, asked }) => {
    const range = parseTimeRange(asked('from'), asked('to'));
    return listAudit(ops, {
      actor: asked('actor'),
      action: asked('action'),
      subject: asked('subject'),
      since: range.from,
      until: range.until,
      limit: 200,
    });
  },
  columns: [
    { header: 'When', text: (e) => e.at },
    { header: 'Who', text: (e) => e.actor },
    { header: 'Action', text: (e) => e.action },
    { header: 'Subject', text: (e) => e.subject },
    { header: 'Details', cell: (e) => html`<code class="details-json">${JSON.stringify(e.details)}</code>` },
  ],
  caption: 'Audit entries, newest first (at most 200)',
  empty: 'No entries match.',
});

export const auditPage = audit.route;
