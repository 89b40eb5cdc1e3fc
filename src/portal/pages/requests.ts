import { html } from 'ghtml';
import { detailList, link, query } from '../../console/views/components.js';
import type { App } from '../../http/route-context.js';
import { InvalidInputError } from '../../services/operators/operator-errors.js';
import {
  requestDetail,
  RequestSearchError,
  searchRequests,
  type LoggedRequest,
  type RequestSearch,
} from '../../services/portal/request-log.js';
import { errorPage } from './error-page.js';
import { portalSessionOf, type PortalDeps, type PortalPage } from '../route-context.js';
import { portalListPage, sendPage } from '../views/layout.js';

const when = (at: Date) =>
  at
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');

/** A day typed in the form (YYYY-MM-DD, UTC): its start, or the next day's start for `to` (the day included). */
function dayBound(day: string | undefined, field: 'from' | 'to'): Date | undefined {
  if (!day) return undefined;
  const start = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(start.getTime()))
    throw new InvalidInputError(`${field}: must be a date (YYYY-MM-DD).`);
  return field === 'to' ? new Date(start.getTime() + 86_400_000) : start;
}

/** The partner's request log (docs/decisions/0087-request-log-one-table-pruned-in-chunks.md), newest first. */
const requestList = portalListPage<LoggedRequest>({
  path: '/requests',
  title: 'Requests',
  section: 'requests',
  filters: [
    { name: 'correlationId', label: 'Correlation id', type: 'search', maxlength: 100 },
    { name: 'status', label: 'Status (404 or 4xx)', type: 'text', maxlength: 3 },
    { name: 'route', label: 'Route (/v1/donations)', type: 'text', maxlength: 200 },
    { name: 'from', label: 'From (UTC day)', type: 'date' },
    { name: 'to', label: 'To (UTC day)', type: 'date' },
  ],
  submit: 'Search',
  search: true,
  query: async ({ ops, asked, request, values, deps }) => {
    const after = (request.query as Record<string, unknown>).after;
    const search: RequestSearch = {
      correlationId: asked('correlationId'),
      status: asked('status'),
      route: asked('route'),
      from: dayBound(asked('from'), 'from'),
      to: dayBound(asked('to'), 'to'),
      after: typeof after === 'string' && after ? after : undefined,
    };
    try {
      const page = await searchRequests(ops.db, ops.partnerId, search);
      const next = page.next ? `/portal/requests${query({ ...values, after: page.next })}` : null;
      // Successful reads are counted, not listed, unless the foundation turned them on (decision 0092).
      const above = deps.config.PARTNER_REQUEST_LOG_SUCCESSFUL_READS
        ? ''
        : html`<p>
            Failed requests and changes (POST) are listed; successful reads (GET) are counted on the
            ${''}!${link('/portal/usage', 'Usage')} page, not listed one by one.
          </p>`;
      return {
        rows: page.requests,
        above,
        summary: next ? html`<p>${''}!${link(next, 'Older requests →')}</p>` : '',
      };
    } catch (err) {
      if (err instanceof RequestSearchError) throw new InvalidInputError(err.message);
      throw err;
    }
  },
  columns: [
    { header: 'When', text: (r) => when(r.at) },
    { header: 'Request', cell: (r) => link(`/portal/requests/${r.id}`, `${r.method} ${r.route}`) },
    { header: 'Status', text: (r) => r.status, numeric: true },
    { header: 'Error', text: (r) => [r.errorCode, r.errorCause].filter(Boolean).join(': ') },
    { header: 'ms', text: (r) => r.latencyMs.toFixed(1), numeric: true },
    { header: 'Correlation id', text: (r) => r.correlationId },
    { header: 'Credential', text: (r) => r.clientId ?? '' },
  ],
  caption: 'Your API requests, newest first',
  empty: 'No request matches. Requests are kept for the days the foundation set (14 by default).',
});

/** A body as the log keeps it: pretty JSON when it parses (it may have been cut). */
function shownBody(body: string | null): string {
  if (body === null) return '(none)';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function detailRoute(app: App, deps: PortalDeps) {
  app.get<{ Params: { id: string } }>('/requests/:id', async (request, reply) => {
    const session = portalSessionOf(request);
    const found = await requestDetail(deps.db, session.partnerId, request.params.id);
    if (!found) return errorPage(request, reply, 404, 'There is no such request in your log.');
    const body = html`${''}!${detailList([
        ['When', when(found.at)],
        ['Request', `${found.method} ${found.route}`],
        ['Status', found.status],
        ['Error code', found.errorCode ?? ''],
        ['Cause', found.errorCause ?? ''],
        ['Latency', `${found.latencyMs.toFixed(1)} ms`],
        ['Correlation id', found.correlationId],
        ['Credential', found.clientId ?? ''],
        ['Environment', found.environment ?? ''],
      ])}
      <p>Donors' personal details (names, e-mail, phone, address) and secrets are masked in both bodies.</p>
      <h2>Request body</h2>
      <pre>${shownBody(found.requestBody)}</pre>
      <h2>Response body</h2>
      <pre>${shownBody(found.responseBody)}</pre>
      <p>${''}!${link('/portal/requests', '← All requests')}</p>`;
    return sendPage(reply, 200, { title: `Request ${found.correlationId}`, section: 'requests', session }, body);
  });
}

/** The Requests pages: the search and one request's detail, both of the request-log area. */
export const requestsPages: PortalPage = (app, deps) => {
  void app.register(async (scoped) => {
    scoped.addHook('onRoute', (route) => {
      route.config = { ...route.config, portalArea: 'request-log' };
    });
    requestList.route(scoped, deps);
    detailRoute(scoped, deps);
  });
};
