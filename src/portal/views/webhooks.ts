import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { csrfField, dataTable, detailList } from '../../console/views/components.js';
import type { EndpointRecord } from '../../services/webhooks/endpoint-record.js';
import { PARTNER_LIST_LIMIT, type partnerDeliveries } from '../../services/webhooks/partner-actions.js';
import { portalSessionOf } from '../route-context.js';
import { sendPage } from './layout.js';

/** The parts of the portal's webhook endpoint page (pages/webhooks.ts): its forms, its deliveries, a new secret. */
export type Delivery = Awaited<ReturnType<typeof partnerDeliveries>>[number];

export function endpointActions(endpoint: EndpointRecord, session: { csrfToken: string }): string {
  const post = (path: string, label: string, confirm?: string, extra = '') =>
    html`<form class="inline" method="post" action="/portal/webhooks/${endpoint.id}/${path}">
      !${csrfField(session)}!${extra}
      <button type="submit" !${confirm ? html`data-confirm="${confirm}"` : ''}>${label}</button>
    </form>`;
  const enabled = endpoint.status === 'enabled';
  return html`<h2>Change it</h2>
    <p>
      !${enabled ? post('test', 'Send a test event') : ''}
      !${enabled ? post('disable', 'Disable', 'Disable this endpoint? Nothing is sent to it until enabled.') : post('enable', 'Enable')}
      !${post('rotate', 'Rotate the secret', 'Make a new signing secret? The current one keeps signing for an overlap.')}
    </p>
    !${
      enabled
        ? html`<form class="card narrow" method="post" action="/portal/webhooks/${endpoint.id}/resend-failed">
            !${csrfField(session)}
            <p>
              <label for="since">Resend every failed delivery since (date or time)</label
              ><input id="since" name="since" required maxlength="40" placeholder="2026-12-01" />
            </p>
            <p><button type="submit">Resend the failed ones</button></p>
          </form>`
        : ''
    }`;
}

/** Each attempt: when, the endpoint's status (or why there was none), how long, and what it answered. */
const attemptList = (d: Delivery) =>
  d.attemptLog.length === 0
    ? html`<span>not attempted yet</span>`
    : html`<ol class="attempts">
        !${d.attemptLog.map(
          (a) =>
            html`<li>
              ${a.attemptedAt}: ${a.responseStatus ?? a.error ?? '–'} in ${a.latencyMs} ms
              !${a.responseSnippet ? html`<br /><code>${a.responseSnippet}</code>` : ''}
            </li>`,
        )}
      </ol>`;

export function deliveryTable(endpoint: EndpointRecord, deliveries: Delivery[], session: { csrfToken: string } | null) {
  return dataTable(
    deliveries,
    [
      { header: 'Event', text: (d) => `${d.eventType} ${d.eventId}` },
      { header: 'Status', text: (d) => d.status },
      { header: 'Attempts and answers', cell: attemptList },
      { header: 'Next attempt', text: (d) => d.nextAttemptAt },
      { header: 'Why it failed', text: (d) => d.failureReason },
      { header: 'Created', text: (d) => d.createdAt },
      ...(session && endpoint.status === 'enabled'
        ? [
            {
              header: 'Resend',
              cell: (d: Delivery) =>
                html`<form
                  class="inline"
                  method="post"
                  action="/portal/webhooks/${endpoint.id}/deliveries/${d.id}/resend"
                >
                  !${csrfField(session)}
                  <button type="submit" aria-label="Resend delivery ${d.id}">Resend</button>
                </form>`,
            },
          ]
        : []),
    ],
    { caption: `Deliveries, newest first (at most ${PARTNER_LIST_LIMIT})`, empty: 'Nothing was sent to it yet.' },
  );
}

export function secretShownOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: EndpointRecord & { secret: string },
  text: string,
) {
  const session = portalSessionOf(request);
  const body = html`<p class="notice ok" role="status">${text}</p>
    !${detailList([
      ['Endpoint', endpoint.id],
      ['URL', endpoint.url],
    ])}
    <p>
      <label for="secret">Signing secret (shown only now: copy it into your secret store)</label
      ><input id="secret" class="secret" type="text" readonly value="${endpoint.secret}" data-copy size="60" />
    </p>
    <p><a href="/portal/webhooks/${endpoint.id}">Go to the endpoint</a></p>`;
  // The secret must not linger in a cache.
  reply.header('cache-control', 'no-store');
  return sendPage(reply, 201, { title: 'Webhook signing secret', section: 'webhooks', session }, body);
}
