import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { field } from '../../console/route-context.js';
import type { Notice } from '../../console/route-context.js';
import { csrfField, detailList, link } from '../../console/views/components.js';
import { may } from '../../domain/portal-roles.js';
import { EVENT_TYPES } from '../../domain/webhooks.js';
import { NotFoundError, OperatorError } from '../../services/operators/operator-errors.js';
import { statusOf } from '../../console/pages/error-page.js';
import {
  addPartnerEndpoint,
  disablePartnerEndpoint,
  enablePartnerEndpoint,
  listPartnerEndpoints,
  partnerDeliveries,
  partnerEndpoint,
  partnerEventLog,
  resendPartnerDelivery,
  resendPartnerFailed,
  rotatePartnerSecret,
  sendPartnerTestEvent,
  PARTNER_LIST_LIMIT,
  type PartnerScope,
} from '../../services/webhooks/partner-actions.js';
import { webhookSettings } from '../../services/webhooks/settings.js';
import type { EndpointRecord } from '../../services/webhooks/endpoint-record.js';
import type { App } from '../../http/route-context.js';
import { portalContext, portalSessionOf, type PortalDeps, type PortalPage } from '../route-context.js';
import { portalListPage, sendPage } from '../views/layout.js';
import { deliveryTable, endpointActions, secretShownOnce, type Delivery } from '../views/webhooks.js';
import { notFoundPage } from './error-page.js';

/**
 * Webhooks: the partner's endpoints in this environment (add one, send a test event, disable or enable it, rotate
 * its secret: shown once), each endpoint's deliveries with every attempt and the endpoint's answer, resending one
 * delivery or every failed one since a time, and the event log. The services are the API's and the operators'
 * (services/webhooks/partner-actions.ts), scoped to the session's partner: another partner's endpoint or delivery
 * answers with the 404 page, as an unknown one.
 */
const SUBSCRIBABLE = ['*', ...EVENT_TYPES.filter((t) => t !== 'webhook.test')];

const list = portalListPage<EndpointRecord>({
  path: '/webhooks',
  title: 'Webhooks',
  section: 'webhooks',
  filters: [],
  query: ({ ops }) => listPartnerEndpoints(ops),
  caption: 'Your webhook endpoints',
  empty: 'No webhook endpoints yet.',
  above: () => html`<p><a href="/portal/webhooks/events">The event log: every event, by type and time</a></p>`,
  columns: [
    { header: 'Endpoint', cell: (e) => link(`/portal/webhooks/${e.id}`, e.url) },
    { header: 'Events', text: (e) => e.events.join(', ') },
    { header: 'Status', text: (e) => (e.disabledReason ? `${e.status} (${e.disabledReason})` : e.status) },
    { header: 'Failing since', text: (e) => e.failingSince },
    { header: 'Created', text: (e) => e.createdAt },
  ],
  below: (view) =>
    may(view.session.role, 'change', 'webhooks')
      ? html`<h2>Add an endpoint</h2>
          <form class="card narrow" method="post" action="/portal/webhooks/add">
            !${csrfField(view.session)}
            <p>
              <label for="url">URL (https; where events are POSTed)</label
              ><input id="url" name="url" type="url" required maxlength="2000" size="60" />
            </p>
            <fieldset>
              <legend>Events</legend>
              !${SUBSCRIBABLE.map(
                (type, i) =>
                  html`<label
                      ><input type="checkbox" name="events" value="${type}" id="event-${i}" />
                      ${type === '*' ? '* (every type, present and future)' : type}</label
                    ><br />`,
              )}
            </fieldset>
            <p><button type="submit">Add the endpoint</button></p>
          </form>`
      : '',
});

const events = portalListPage<Awaited<ReturnType<typeof partnerEventLog>>[number]>({
  path: '/webhooks/events',
  title: 'Event log',
  section: 'webhooks',
  filters: [
    { name: 'type', label: 'Type', type: 'select', options: EVENT_TYPES, any: 'Any type' },
    { name: 'from', label: 'From (date or time)', type: 'text', maxlength: 40 },
    { name: 'to', label: 'To (date or time)', type: 'text', maxlength: 40 },
  ],
  query: ({ ops, asked }) => partnerEventLog(ops, { type: asked('type'), from: asked('from'), to: asked('to') }),
  caption: `Your events, newest first (at most ${PARTNER_LIST_LIMIT})`,
  empty: 'No events match.',
  columns: [
    { header: 'Event', text: (e) => e.id },
    { header: 'Type', text: (e) => e.type },
    { header: 'Sequence', text: (e) => e.sequence, numeric: true },
    { header: 'Time', text: (e) => e.timestamp },
    { header: 'Data', cell: (e) => html`<code>${JSON.stringify(e.data)}</code>` },
  ],
});

type Id = { Params: { id: string } };
type DeliveryParams = { Params: { id: string; deliveryId: string } };

export const webhooksPages: PortalPage = (app, deps) => {
  const area = { portalArea: 'webhooks' as const };
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => void (route.config = { ...route.config, ...area }));
    list.route(scope, deps);
    events.route(scope, deps);
    scope.get<Id>('/webhooks/:id', (request, reply) => endpointPage(deps, request, reply));
    registerAddAndRotate(scope, deps);
    registerEndpointChanges(scope, deps);
  });
};

/** Adding an endpoint and rotating its secret: both answer the secret, shown once. */
function registerAddAndRotate(scope: App, deps: PortalDeps) {
  scope.post('/webhooks/add', async (request, reply) => {
    const ctx = portalContext(request, deps);
    const chosen = (request.body as Record<string, unknown> | undefined)?.events;
    const input = { url: field(request.body, 'url'), events: [chosen ?? []].flat().map(String) };
    try {
      const added = await addPartnerEndpoint(ctx, webhookSettings(deps.config), input);
      return secretShownOnce(request, reply, added, 'The endpoint was added.');
    } catch (err) {
      if (!(err instanceof OperatorError)) throw err;
      return list.show(deps, request, reply, { notice: { kind: 'error', text: err.message }, status: statusOf(err) });
    }
  });
  scope.post<Id>('/webhooks/:id/rotate', async (request, reply) => {
    const ctx = portalContext(request, deps);
    return onEndpoint(deps, request, reply, async () => {
      const rotated = await rotatePartnerSecret(ctx, webhookSettings(deps.config), request.params.id);
      const until = rotated.previousSecretExpiresAt ?? '';
      return secretShownOnce(
        request,
        reply,
        rotated,
        `A new secret was made; the previous one also signs until ${until}.`,
      );
    });
  });
}

/** The changes of one endpoint, each answered with the endpoint's page and what was done. */
function registerEndpointChanges(scope: App, deps: PortalDeps) {
  // Every change's route has the endpoint's id; only the resend of one delivery has a delivery id too.
  const change = (path: string, run: (request: FastifyRequest<DeliveryParams>, ctx: PartnerScope) => Promise<string>) =>
    scope.post<DeliveryParams>(path, async (request, reply) =>
      onEndpoint(deps, request, reply, async () => {
        const text = await run(request, portalContext(request, deps));
        return endpointPage(deps, request, reply, { kind: 'ok', text });
      }),
    );
  change('/webhooks/:id/test', async (request, ctx) => {
    const queued = await sendPartnerTestEvent(ctx, request.params.id);
    return `A webhook.test event (${queued.eventId}) is queued; its delivery appears below.`;
  });
  change('/webhooks/:id/disable', async (request, ctx) => {
    await disablePartnerEndpoint(ctx, request.params.id);
    return 'Disabled: nothing is sent to it until it is enabled again.';
  });
  change('/webhooks/:id/enable', async (request, ctx) => {
    await enablePartnerEndpoint(ctx, request.params.id);
    return 'Enabled: new events are sent to it. Missed ones are in the event log; resend failed ones below.';
  });
  change('/webhooks/:id/resend-failed', async (request, ctx) => {
    const { resent } = await resendPartnerFailed(ctx, request.params.id, field(request.body, 'since'));
    return resent === 0
      ? 'No failed delivery to send again since then.'
      : `${resent} failed event(s) are queued again.`;
  });
  change('/webhooks/:id/deliveries/:deliveryId/resend', async (request, ctx) => {
    const { deliveryId } = await resendPartnerDelivery(ctx, request.params.id, request.params.deliveryId);
    return `Queued again as delivery ${deliveryId}.`;
  });
}

/**
 * Runs a change on one endpoint: an unknown (or another partner's) endpoint or delivery is the 404 page; a refusal
 * the person can act on is the endpoint's page with the reason; anything else goes to the error handler.
 */
async function onEndpoint(
  deps: PortalDeps,
  request: FastifyRequest<Id>,
  reply: FastifyReply,
  run: () => Promise<unknown>,
): Promise<unknown> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof NotFoundError) return notFoundPage(request, reply);
    if (!(err instanceof OperatorError)) throw err;
    return endpointPage(deps, request, reply, { kind: 'error', text: err.message }, statusOf(err));
  }
}

async function endpointPage(
  deps: PortalDeps,
  request: FastifyRequest<Id>,
  reply: FastifyReply,
  notice: Notice = null,
  status = 200,
) {
  const session = portalSessionOf(request);
  const ctx = portalContext(request, deps);
  let endpoint: EndpointRecord;
  let deliveries: Delivery[];
  try {
    endpoint = await partnerEndpoint(ctx, request.params.id);
    deliveries = await partnerDeliveries(ctx, endpoint.id);
  } catch (err) {
    if (err instanceof NotFoundError) return notFoundPage(request, reply);
    throw err;
  }
  const canChange = may(session.role, 'change', 'webhooks');
  const body = html`!${detailList([
      ['Endpoint', endpoint.id],
      ['URL', endpoint.url],
      ['Events', endpoint.events.join(', ')],
      ['Status', endpoint.status],
      ['Disabled because', endpoint.disabledReason],
      ['Failing since', endpoint.failingSince],
      ['Previous secret signs until', endpoint.previousSecretExpiresAt],
      ['Created', endpoint.createdAt],
    ])}
    !${canChange ? endpointActions(endpoint, session) : ''}
    !${deliveryTable(endpoint, deliveries, canChange ? session : null)}
    <p><a href="/portal/webhooks">Back to the endpoints</a></p>`;
  return sendPage(
    reply,
    status,
    { title: `Webhook endpoint ${endpoint.url}`, section: 'webhooks', session, notice },
    body,
  );
}
