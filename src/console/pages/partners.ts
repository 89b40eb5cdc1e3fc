import type { OperatorContext } from '../../services/operators/context.js';
import { html } from 'ghtml';
import { listChannelsWithUsage } from '../../services/operators/channels.js';
import {
  changePartner,
  createPartner,
  listPartners,
  setPartnerStatus,
  showPartner,
} from '../../services/operators/partners.js';
import { field, fields, operatorContext, sessionOf, type ConsolePage } from '../route-context.js';
import { changeRoute, type ShowPage } from '../views/change-route.js';
import { canChange, csrfField, detailList, link, readOnlyNote } from '../views/components.js';
import { listPage } from '../views/list-page.js';
import { sendPage } from '../views/layout.js';
import { channelBoxes, quotaFields } from '../views/partner-fields.js';
import { listContacts } from '../../services/operators/partner-contacts.js';
import { contactsSection } from '../views/contacts.js';
import { portalUsersSection } from '../views/portal-users.js';
import { listUsers } from '../../services/portal/users.js';
import { listNotices } from '../../services/operators/partner-notices.js';
import { noticesSection } from '../views/notices.js';

/** Partners: the list, creation, and one partner's channels, quota and status. */
export const partnersPages: ConsolePage = (app, deps) => {
  partnerList.route(app, deps);
  changeRoute(app, deps, '/partners', {
    run: (request) =>
      createPartner(operatorContext(request, deps), {
        name: field(request.body, 'name'),
        channels: fields(request.body, 'channels'),
        quota: {
          limit: wholeOr(field(request.body, 'quotaLimit'), deps.config.QUOTA_DEFAULT_LIMIT),
          windowSeconds: wholeOr(field(request.body, 'quotaWindowSeconds'), deps.config.QUOTA_DEFAULT_WINDOW_SECONDS),
        },
      }),
    show: partnerList.show,
    done: (created, _request, reply) => reply.redirect(`/console/partners/${created.id}?done=created`, 303),
  });
  app.get<Id>('/partners/:id', (request, reply) => detailPage(deps, request, reply));
  changeRoute<Id['Params'], { id: string }>(app, deps, '/partners/:id', {
    run: (request) => changePartnerBy(operatorContext(request, deps), request.params.id, request.body),
    show: detailPage,
    done: (changed, request, reply) => {
      const action = field(request.body, 'action');
      return reply.redirect(`/console/partners/${changed.id}?done=${action === 'update' ? 'updated' : action}`, 303);
    },
  });
};

type Id = { Params: { id: string } };

/** Suspend or reactivate (with a reason for the audit log), or new channels and quota, as the form's `action` says. */
function changePartnerBy(ctx: OperatorContext, id: string, body: unknown) {
  const action = field(body, 'action');
  if (action === 'suspend' || action === 'reactivate')
    return setPartnerStatus(ctx, id, action === 'suspend' ? 'suspended' : 'active', field(body, 'reason') || undefined);
  return changePartner(ctx, id, {
    channels: fields(body, 'channels'),
    quotaLimit: wholeOr(field(body, 'quotaLimit'), undefined),
    quotaWindowSeconds: wholeOr(field(body, 'quotaWindowSeconds'), undefined),
  });
}

/** GET /partners: every partner, and the form of a new one for admins (filled again when it was refused). */
const partnerList = listPage({
  path: '/partners',
  title: 'Partners',
  section: 'partners',
  filters: [],
  query: ({ ops }) => listPartners(ops),
  columns: [
    { header: 'Name', cell: (p) => link(`/console/partners/${p.id}`, p.name) },
    { header: 'Status', text: (p) => p.status },
    { header: 'Channels', text: (p) => p.channels },
    { header: 'Quota', text: (p) => `${p.quota_limit} / ${p.quota_window_seconds} s` },
    { header: 'Usable credentials', text: (p) => p.usableCredentials, numeric: true },
  ],
  caption: 'Partners',
  empty: 'No partners yet.',
  below: async ({ session, ops, deps, request }) => {
    if (!canChange(session)) return readOnlyNote('partners');
    const channels = await listChannelsWithUsage(ops);
    return html`<form class="card" method="post" action="/console/partners">
      <h2>New partner</h2>
      !${csrfField(session)}
      <p>
        <label for="name">Name</label
        ><input id="name" name="name" required maxlength="200" value="${field(request.body, 'name')}" />
      </p>
      !${channelBoxes(
        channels.map((c) => c.name),
        fields(request.body, 'channels'),
      )}
      !${quotaFields(deps.config.QUOTA_DEFAULT_LIMIT, deps.config.QUOTA_DEFAULT_WINDOW_SECONDS)}
      <p><button type="submit">Create partner</button></p>
    </form>`;
  },
});

const DONE: Record<string, string> = {
  created: 'Partner created. Issue its credentials on the Credentials page.',
  updated: 'Partner changed.',
  suspend: 'Partner suspended: its calls are refused within the credential cache time.',
  reactivate: 'Partner reactivated.',
  'contact-added': 'Contact added.',
  'contact-removed': 'Contact removed.',
  'portal-user-invited': 'Invitation to the partner portal sent.',
};

export const detailPage: ShowPage<Id> = async (deps, request, reply, { notice, status } = {}) => {
  const { id } = request.params;
  const session = sessionOf(request);
  const ctx = operatorContext(request, deps);
  const [partner, channels, contacts, notices] = await Promise.all([
    showPartner(ctx, id),
    listChannelsWithUsage(ctx),
    listContacts(ctx, id),
    listNotices(ctx, id),
  ]);
  const portalUsers = portalUsersSection(partner.id, await listUsers(ctx, partner.id), session);
  const done = DONE[(request.query as { done?: string }).done ?? ''];
  const summary = detailList([
    ['Id', partner.id],
    ['Status', partner.status],
    ['Channels', partner.channels],
    ['Quota', `${partner.quota_limit} requests per ${partner.quota_window_seconds} s`],
    ['Usable credentials', partner.usableCredentials],
    [
      'Wrong secrets, last 24 h',
      partner.failedAuthentications24h === 0
        ? '0'
        : `${partner.failedAuthentications24h}: someone may be guessing a client secret. If it goes on, rotate the credential.`,
    ],
    ['Created', partner.created_at],
  ]);
  const forms = canChange(session)
    ? changeForms(
        partner,
        channels.map((c) => c.name),
        session,
      )
    : readOnlyNote('this partner');
  const links = html`<p>
    <a href="/console/credentials?partner=${encodeURIComponent(partner.name)}">Credentials of ${partner.name}</a> ·
    <a href="/console/audit?subject=${encodeURIComponent(partner.id)}">Audit trail</a>
  </p>`;
  return sendPage(
    reply,
    status ?? 200,
    {
      title: partner.name,
      section: 'partners',
      session,
      notice: notice ?? (done ? { kind: 'ok', text: done } : null),
    },
    html`!${summary}!${links}!${contactsSection(partner.id, contacts, session)}!${portalUsers}!${noticesSection(notices)}!${forms}`,
  );
};

/** The forms an operator who may change partners sees: channels and quota, and suspend or reactivate. */
function changeForms(
  partner: Awaited<ReturnType<typeof showPartner>>,
  channelNames: string[],
  session: ReturnType<typeof sessionOf>,
): string {
  return html`<form class="card" method="post" action="/console/partners/${partner.id}">
      <h2>Channels and quota</h2>
      !${csrfField(session)}<input type="hidden" name="action" value="update" />
      !${channelBoxes(channelNames, partner.channels)}
      !${quotaFields(partner.quota_limit, partner.quota_window_seconds)}
      <p><button type="submit">Save changes</button></p>
    </form>
    <form class="card" method="post" action="/console/partners/${partner.id}">
      <h2>${partner.status === 'active' ? 'Suspend' : 'Reactivate'}</h2>
      !${csrfField(session)}
      <input type="hidden" name="action" value="${partner.status === 'active' ? 'suspend' : 'reactivate'}" />
      <p>
        <label for="reason">Reason (recorded in the audit log)</label
        ><input id="reason" name="reason" maxlength="500" />
      </p>
      <p>
        <button
          type="submit"
          class="${partner.status === 'active' ? 'danger' : ''}"
          data-confirm="${partner.status === 'active' ? 'Suspend this partner? Every call it makes will be refused.' : ''}"
        >
          ${partner.status === 'active' ? 'Suspend partner' : 'Reactivate partner'}
        </button>
      </p>
    </form>`;
}

/** A whole number from a form field; `fallback` when the field is empty; NaN (refused by the service) otherwise. */
function wholeOr<T extends number | undefined>(value: string, fallback: T): number | T {
  if (value.trim() === '') return fallback;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}
