import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { ApiError } from '../../api-errors.js';
import { csrfField, detailList } from '../../console/views/components.js';
import { may } from '../../domain/portal-roles.js';
import { webhookSettings } from '../../services/webhooks/settings.js';
import { partnerFacing, rotateForPartner } from '../../services/credentials/self-rotation.js';
import { listCredentials, type CredentialView } from '../../services/operators/credential-admin.js';
import { OperatorError } from '../../services/operators/operator-errors.js';
import { portalContext, portalSessionOf, type PortalDeps, type PortalPage } from '../route-context.js';
import { portalListPage, sendPage } from '../views/layout.js';
import { notFoundPage } from './error-page.js';

/**
 * Credentials: the partner's pairs with their environment, expiry and last use; a developer or admin rotates one
 * through the same service and limits as POST /credentials/rotate (14 days of overlap, the daily limit shared with
 * the API), the new secret shown once on the answer page, never stored in the clear.
 */
const list = portalListPage<CredentialView>({
  path: '/credentials',
  title: 'Credentials',
  section: 'credentials',
  filters: [],
  query: ({ ops }) => partnerCredentials(ops),
  caption: 'Your API credentials',
  empty: 'No credentials: ask the foundation to issue one.',
  columns: (view) => [
    { header: 'Client id', text: (c) => c.clientId },
    { header: 'Environment', text: (c) => c.environment },
    { header: 'State', text: (c) => c.state },
    { header: 'Created', text: (c) => c.createdAt },
    { header: 'Expires', text: (c) => c.expiresAt ?? 'never' },
    { header: 'Last used', text: (c) => c.lastUsedAt ?? 'never' },
    ...(may(view.session.role, 'change', 'credentials')
      ? [
          {
            header: 'Rotate',
            cell: (c: CredentialView) =>
              c.state === 'active' && !c.replacedBy
                ? html`<form class="inline" method="post" action="/portal/credentials/${c.clientId}/rotate">
                    !${csrfField(view.session)}
                    <button type="submit" data-confirm="Rotate ${c.clientId}? The old pair keeps working for 14 days.">
                      Rotate
                    </button>
                  </form>`
                : '–',
          },
        ]
      : []),
  ],
});

const partnerCredentials = async (ops: {
  db: PortalDeps['db'];
  now: () => Date;
  operator: string;
  partnerId: string;
}) => (await listCredentials(ops)).filter((c) => c.partnerId === ops.partnerId);

export const credentialsPages: PortalPage = (app, deps) => {
  const config = { config: { portalArea: 'credentials' as const } };
  app.get('/credentials', config, (request, reply) => list.show(deps, request, reply));
  app.post<{ Params: { clientId: string } }>('/credentials/:clientId/rotate', config, async (request, reply) => {
    const ctx = portalContext(request, deps);
    const mine = (await partnerCredentials(ctx)).some((c) => c.clientId === request.params.clientId);
    if (!mine) return notFoundPage(request, reply);
    try {
      const rotation = await deps.db.transaction().execute((trx) =>
        rotateForPartner(trx, rotationDeps(deps), {
          partnerId: ctx.partnerId,
          clientId: request.params.clientId,
          actor: ctx.operator,
        }),
      );
      return shownOnce(request, reply, rotation.issued, rotation.previous);
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'RATE_LIMIT') {
        for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
        const text = `${err.cause ?? err.message}.`;
        return list.show(deps, request, reply, { notice: { kind: 'error', text }, status: 429 });
      }
      if (err instanceof OperatorError)
        return list.show(deps, request, reply, {
          notice: { kind: 'error', text: partnerFacing(err.message) },
          status: 409,
        });
      throw err;
    }
  });
};

const rotationDeps = (deps: PortalDeps) => ({
  db: deps.db,
  now: deps.now,
  secretBox: webhookSettings(deps.config).secretBox,
  perDay: deps.config.CREDENTIAL_SELF_ROTATIONS_PER_DAY,
});

function shownOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  issued: { clientId: string; clientSecret: string; environment: string },
  previous: CredentialView,
) {
  const session = portalSessionOf(request);
  const body = html`<p class="notice ok" role="status">
      A new pair was issued. ${previous.clientId} keeps working until ${previous.expiresAt?.toISOString() ?? ''}; your
      security contacts are told.
    </p>
    !${detailList([
      ['Client id', issued.clientId],
      ['Environment', issued.environment],
    ])}
    <p>
      <label for="secret">Client secret (shown only now: copy it into your secret store)</label
      ><input id="secret" class="secret" type="text" readonly value="${issued.clientSecret}" data-copy size="60" />
    </p>
    <p><a href="/portal/credentials">Back to the credentials</a></p>`;
  // The secret must not linger in a cache.
  reply.header('cache-control', 'no-store');
  return sendPage(reply, 201, { title: 'New credential', section: 'credentials', session }, body);
}
