import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { Environments } from '../../config/index.js';
import { DEFAULT_OVERLAP_DAYS } from '../../services/operators/credential-state.js';
import {
  MAX_OVERLAP_DAYS,
  emergencyRotateCredential,
  issuePartnerCredential,
  listCredentials,
  parseEnvironment,
  revokeCredential,
  rotateCredential,
  type CredentialView,
  type IssuedPair,
} from '../../services/operators/credential-admin.js';
import type { OperatorContext } from '../../services/operators/context.js';
import { field, operatorContext, sessionOf, type ConsolePage } from '../route-context.js';
import { changeRoute } from '../views/change-route.js';
import { canChange, detailList, readOnlyNote, selectField } from '../views/components.js';
import { partnerFilter } from '../views/filters.js';
import { listPage } from '../views/list-page.js';
import { sendPage } from '../views/layout.js';

/** Credentials: list, issue (the secret is shown once), rotate with an overlap, emergency rotation, revoke. */
export const credentialsPages: ConsolePage = (app, deps) => {
  credentialList.route(app, deps);
  changeRoute(app, deps, '/credentials', {
    run: (request) =>
      issuePartnerCredential(
        operatorContext(request, deps),
        field(request.body, 'partner'),
        parseEnvironment(field(request.body, 'environment') || deps.config.APP_ENV),
      ),
    show: credentialList.show,
    done: (issued, request, reply) => secretPage(request, reply, 'Credentials issued', issued, null),
  });
  changeRoute<{ clientId: string }, Awaited<ReturnType<typeof changeCredential>>>(app, deps, '/credentials/:clientId', {
    run: (request) => changeCredential(operatorContext(request, deps), request.params.clientId, request.body),
    show: credentialList.show,
    done: (done, request, reply) => {
      const { clientId } = request.params;
      if (!('issued' in done))
        return `Revoked ${clientId}; the partner has ${done.usableLeft} usable pair(s) left in ${done.revoked.environment}.`;
      const old =
        field(request.body, 'action') === 'rotate'
          ? `The old pair ${clientId} keeps working until ${done.previous.expiresAt?.toISOString() ?? '–'}.`
          : `The old pair ${clientId} is revoked now.`;
      return secretPage(request, reply, 'Credentials rotated', done.issued, old);
    },
  });
};

/** Rotation with an overlap, emergency rotation, or revocation, as the form's `action` says. */
async function changeCredential(ctx: OperatorContext, clientId: string, body: unknown) {
  const action = field(body, 'action');
  const reason = field(body, 'reason') || undefined;
  if (action === 'rotate')
    return rotateCredential(ctx, clientId, Number(field(body, 'overlapDays') || DEFAULT_OVERLAP_DAYS));
  if (action === 'emergency-rotate') return emergencyRotateCredential(ctx, clientId, reason);
  return revokeCredential(ctx, clientId, reason);
}

/** GET /credentials: every partner's credentials, or one partner's; admins issue, rotate and revoke. */
const credentialList = listPage<CredentialView>({
  path: '/credentials',
  title: 'Credentials',
  section: 'credentials',
  filters: [partnerFilter('All partners', 'partner-filter')],
  query: ({ ops, asked }) => listCredentials(ops, { partner: asked('partner') }),
  columns: ({ session }) => [
    { header: 'client_id', cell: (c) => html`<code>${c.clientId}</code>` },
    { header: 'Partner', text: (c) => c.partnerName },
    { header: 'Environment', text: (c) => c.environment },
    { header: 'State', text: (c) => c.state },
    { header: 'Issued', text: (c) => c.createdAt },
    { header: 'Stops', text: (c) => c.revokedAt ?? c.expiresAt },
    { header: 'Last used', text: (c) => c.lastUsedAt },
    ...(canChange(session) ? [{ header: 'Actions', cell: (c: CredentialView) => actions(c, session.csrfToken) }] : []),
  ],
  caption: ({ values }) => (values.partner ? `Credentials of ${values.partner}` : 'All credentials'),
  empty: 'No credentials match.',
  below: ({ session, deps, values, options }) =>
    canChange(session)
      ? html`<form class="card" method="post" action="/console/credentials">
          <h2>Issue credentials</h2>
          <input type="hidden" name="_csrf" value="${session.csrfToken}" />
          !${selectField({ id: 'issue-partner', name: 'partner', label: 'Issue for partner', options: options.partner ?? [], chosen: values.partner || undefined })}
          !${selectField({ id: 'environment', label: 'Environment', options: Environments, chosen: deps.config.APP_ENV })}
          <p><button type="submit">Issue a new pair</button></p>
        </form>`
      : readOnlyNote('credentials'),
});

/** Rotation with an overlap, emergency rotation and revocation, one small form each (CSRF token in every one). */
function actions(c: CredentialView, csrf: string): string {
  if (c.state === 'revoked' || c.state === 'expired') return '–';
  const form = (action: string, label: string, extra: string, confirm: string) =>
    html`<form class="inline" method="post" action="/console/credentials/${c.clientId}">
      <input type="hidden" name="_csrf" value="${csrf}" /><input
        type="hidden"
        name="action"
        value="${action}"
      />!${extra}<button type="submit" class="${action === 'rotate' ? '' : 'danger'}" data-confirm="${confirm}">
        ${label}
      </button>
    </form>`;
  const overlap = html`<label class="compact"
    >overlap days
    <input name="overlapDays" type="number" min="1" max="${MAX_OVERLAP_DAYS}" value="${DEFAULT_OVERLAP_DAYS}" size="3"
  /></label>`;
  return [
    c.state === 'active' ? form('rotate', 'Rotate', overlap, '') : '',
    c.state === 'active'
      ? form('emergency-rotate', 'Emergency rotate', '', `Revoke ${c.clientId} now and issue a new pair?`)
      : '',
    form('revoke', 'Revoke', '', `Revoke ${c.clientId} now? Calls with it are refused at once.`),
  ].join('');
}

/** The only place a secret is ever shown: this response, once; it is not stored (only its hash) nor cached. */
function secretPage(
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  issued: IssuedPair,
  note: string | null,
) {
  const session = sessionOf(request);
  const body = html`<section class="card secret" aria-labelledby="secret-h">
    <h2 id="secret-h">Copy the secret now: it is shown once</h2>
    !${detailList([
      ['Partner', issued.partnerName],
      ['Environment', issued.environment],
    ])}
    <p>
      <label for="client-id">client_id</label><input id="client-id" readonly value="${issued.clientId}" data-copy />
    </p>
    <p>
      <label for="client-secret">client_secret</label
      ><input id="client-secret" readonly value="${issued.clientSecret}" data-copy />
    </p>
    !${note ? html`<p>${note}</p>` : ''}
    <p>Only a hash of the secret is kept. If it is lost, rotate the pair.</p>
    <p>
      <a href="/console/credentials?partner=${encodeURIComponent(issued.partnerName)}"
        >Back to the credentials of ${issued.partnerName}</a
      >
    </p>
  </section>`;
  return sendPage(reply, 200, { title, section: 'credentials', session, notice: { kind: 'ok', text: title } }, body);
}
