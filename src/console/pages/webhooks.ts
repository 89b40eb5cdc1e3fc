import type { FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import {
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookEvent,
} from '../../services/webhooks/operations.js';
import { field, operatorContext, sessionOf, type ConsolePage } from '../route-context.js';
import { changeRoute, type ShowPage } from '../views/change-route.js';
import { canChange, csrfField, dataTable, detailList, link, readOnlyNote } from '../views/components.js';
import { partnerFilter } from '../views/filters.js';
import { listPage } from '../views/list-page.js';
import { sendPage } from '../views/layout.js';

type Endpoint = Awaited<ReturnType<typeof listWebhookEndpoints>>[number];
type Delivery = Awaited<ReturnType<typeof listWebhookDeliveries>>[number];

const DELIVERY_PAGE = 100;

/**
 * Partner webhook endpoints (every partner's), one endpoint's deliveries with their attempts, and what an operator
 * does about a failing receiver: disable it with a reason the partner sees, enable it again, replay an event.
 * The same services as `fundraiser-admin webhooks`.
 */
export const webhooksPages: ConsolePage = (app, deps) => {
  webhookList.route(app, deps);
  getWebhooksById(app, deps);
  postWebhookChanges(app, deps);
};

/** GET /webhooks: every partner's endpoints, by partner and status. */
const webhookList = listPage({
  path: '/webhooks',
  title: 'Webhooks',
  section: 'webhooks',
  filters: [
    partnerFilter(),
    { name: 'status', label: 'Status', type: 'select', options: ['enabled', 'disabled'], any: 'Any status' },
  ],
  query: ({ ops, asked }) => listWebhookEndpoints(ops, { partner: asked('partner'), status: asked('status') }),
  columns: [
    { header: 'Endpoint', cell: (e) => link(`/console/webhooks/${e.id}`, e.url) },
    { header: 'Partner', text: (e) => `${e.partnerName} (${e.environment})` },
    { header: 'Events', text: (e) => e.events },
    { header: 'Status', text: (e) => e.status },
    { header: 'Failing since', text: (e) => e.failingSince },
    { header: 'Created', text: (e) => e.createdAt },
  ],
  caption: 'Webhook endpoints of every partner',
  empty: 'No endpoints match.',
});

/** GET /webhooks/:id */
const getWebhooksById: ConsolePage = (app, deps) => {
  app.get<Id>('/webhooks/:id', async (request, reply) => endpointPage(deps, request, reply));
};

function endpointFacts(endpoint: Endpoint | undefined, id: string): string {
  if (!endpoint) return detailList([['Endpoint', id]]);
  return detailList([
    ['Endpoint', endpoint.id],
    ['URL', endpoint.url],
    ['Partner', `${endpoint.partnerName} (${endpoint.environment})`],
    ['Events', endpoint.events],
    ['Status', endpoint.status],
    ['Disabled because', endpoint.disabledReason],
    ['Failing since', endpoint.failingSince],
    ['Previous secret valid until', endpoint.previousSecretExpiresAt],
    ['Created', endpoint.createdAt],
  ]);
}

function actions(id: string, endpoint: Endpoint | undefined, session: ReturnType<typeof sessionOf>): string {
  const toggle =
    endpoint?.status === 'disabled'
      ? html`<form class="card" method="post" action="/console/webhooks/${id}/enable">
          !${csrfField(session)}
          <p><button type="submit">Enable this endpoint</button></p>
        </form>`
      : html`<form class="card" method="post" action="/console/webhooks/${id}/disable">
          !${csrfField(session)}
          <p>
            <label for="reason">Reason (the partner sees it)</label
            ><input id="reason" name="reason" required maxlength="500" />
          </p>
          <p><button type="submit">Disable this endpoint</button></p>
        </form>`;
  const replay = html`<form class="card" method="post" action="/console/webhooks/${id}/replay">
    !${csrfField(session)}
    <p>
      <label for="eventId">Event id to send again</label
      ><input id="eventId" name="eventId" required maxlength="64" placeholder="evt_…" />
    </p>
    <p><button type="submit">Replay the event to this endpoint</button></p>
  </form>`;
  return html`!${toggle}!${replay}`;
}

const deliveryTable = (deliveries: Delivery[]) =>
  dataTable(
    deliveries,
    [
      { header: 'Event', text: (d) => `${d.eventType} ${d.eventId}` },
      { header: 'Status', text: (d) => d.status },
      { header: 'Attempts', text: (d) => d.attempts, numeric: true },
      {
        header: 'Last answer',
        text: (d) => {
          const last = d.attemptLog.at(-1);
          return last ? `${last.responseStatus ?? last.error ?? '–'} in ${last.latencyMs} ms` : null;
        },
      },
      { header: 'Next attempt', text: (d) => d.nextAttemptAt },
      { header: 'Why it failed', text: (d) => d.failureReason },
      { header: 'Replay of', text: (d) => d.replayOf },
      { header: 'Created', text: (d) => d.createdAt },
    ],
    { caption: `Deliveries, newest first (at most ${DELIVERY_PAGE})`, empty: 'Nothing was sent to it yet.' },
  );

/** POST /webhooks/:id/disable, /enable and /replay: each answers with the endpoint's page and a notice. */
const postWebhookChanges: ConsolePage = (app, deps) => {
  const change = (path: string, run: (request: FastifyRequest<Id>) => Promise<string>) =>
    changeRoute(app, deps, `/webhooks/:id/${path}`, { run, show: endpointPage, done: (text) => text });
  change('disable', async (request) => {
    await disableWebhookEndpoint(operatorContext(request, deps), request.params.id, field(request.body, 'reason'));
    return 'Disabled: nothing is sent to it until it is enabled again. The partner sees the reason.';
  });
  change('enable', async (request) => {
    await enableWebhookEndpoint(operatorContext(request, deps), request.params.id);
    return 'Enabled: new events are sent to it. Missed ones are in the partner’s event log, or can be replayed.';
  });
  change('replay', async (request) => {
    const eventId = field(request.body, 'eventId').trim();
    const result = await replayWebhookEvent(operatorContext(request, deps), eventId, { endpoint: request.params.id });
    return `Event ${result.eventId} is queued again (delivery ${result.deliveries[0]?.deliveryId ?? '–'}).`;
  });
};

type Id = { Params: { id: string } };

/** One endpoint: its facts, what the operator may do with it, and its latest deliveries. */
const endpointPage: ShowPage<Id> = async (deps, request, reply, { notice, status } = {}) => {
  const session = sessionOf(request);
  const ctx = operatorContext(request, deps);
  const { id } = request.params;
  const endpoint = (await listWebhookEndpoints(ctx, {})).find((e) => e.id === id);
  const deliveries = await listWebhookDeliveries(ctx, { endpoint: id, limit: DELIVERY_PAGE });
  const body = html`!${endpointFacts(endpoint, id)}
  !${canChange(session) ? actions(id, endpoint, session) : readOnlyNote('webhook endpoints')}
  !${deliveryTable(deliveries)}`;
  return sendPage(
    reply,
    status ?? 200,
    { title: `Webhook endpoint ${id.slice(0, 8)}`, section: 'webhooks', session, notice },
    body,
  );
};
