import { html } from 'ghtml';
import { AuditActions, listAudit } from '../../services/operators/audit.js';
import { parseTimeRange } from '../../services/operators/time-range.js';
import { operatorContext, param, sessionOf, type ConsolePage } from '../route-context.js';
import { dataTable, selectField } from '../views/components.js';
import { sendPage } from '../views/layout.js';

/** The audit log shared by the CLI and the console, newest first, filtered by actor, action, subject and dates. */
export const auditPage: ConsolePage = (app, deps) => {
  app.get('/audit', async (request, reply) => {
    const value = (name: string) => param(request, name) || undefined;
    const range = parseTimeRange(value('from'), value('to'));
    const entries = await listAudit(operatorContext(request, deps), {
      actor: value('actor'),
      action: value('action'),
      subject: value('subject'),
      since: range.from,
      until: range.until,
      limit: 200,
    });
    const families = [...new Set(Object.values(AuditActions).flatMap((a) => [a.split('.')[0]!, a]))].sort();
    const chosen = param(request, 'action');
    const form = html`<form class="filters" method="get" action="/console/audit">
      <p><label for="actor">Who</label><input id="actor" name="actor" value="${param(request, 'actor')}" /></p>
      !${selectField({ id: 'action', label: 'Action', options: families, chosen, any: 'Any action' })}
      <p>
        <label for="subject">Subject (partner, client_id, member number…)</label
        ><input id="subject" name="subject" value="${param(request, 'subject')}" />
      </p>
      <p>
        <label for="from">From (UTC day)</label
        ><input id="from" name="from" type="date" value="${param(request, 'from')}" />
      </p>
      <p>
        <label for="to">To (included)</label><input id="to" name="to" type="date" value="${param(request, 'to')}" />
      </p>
      <p><button type="submit">Filter</button></p>
    </form>`;
    const table = dataTable(
      entries,
      [
        { header: 'When', text: (e) => e.at },
        { header: 'Who', text: (e) => e.actor },
        { header: 'Action', text: (e) => e.action },
        { header: 'Subject', text: (e) => e.subject },
        { header: 'Details', cell: (e) => html`<code class="details-json">${JSON.stringify(e.details)}</code>` },
      ],
      { caption: 'Audit entries, newest first (at most 200)', empty: 'No entries match.' },
    );
    return sendPage(
      reply,
      200,
      { title: 'Audit log', section: 'audit', session: sessionOf(request) },
      html`!${form}!${table}`,
    );
  });
};
