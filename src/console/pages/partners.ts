import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { listChannelsWithUsage } from '../../services/operators/channels.js';
import {
  changePartner,
  createPartner,
  listPartners,
  setPartnerStatus,
  showPartner,
} from '../../services/operators/partners.js';
import {
  attempt,
  field,
  fields,
  operatorContext,
  sessionOf,
  type ConsoleDeps,
  type ConsolePage,
  type Notice,
} from '../route-context.js';
import { canChange, csrfField, dataTable, detailList, link, readOnlyNote } from '../views/components.js';
import { sendPage } from '../views/layout.js';
import { channelBoxes, quotaFields } from '../views/partner-fields.js';
import { listContacts } from '../../services/operators/partner-contacts.js';
import { contactsSection } from '../views/contacts.js';
import { listNotices } from '../../services/operators/partner-notices.js';
import { noticesSection } from '../views/notices.js';

/** Partners: the list, creation, and one partner's channels, quota and status. */
export const partnersPages: ConsolePage = (app, deps) => {
  app.get('/partners', (request, reply) => listPage(request, reply, deps, null, 200));

  app.post('/partners', async (request, reply) => {
    const ctx = operatorContext(request, deps);
    const result = await attempt(
      () =>
        createPartner(ctx, {
          name: field(request.body, 'name'),
          channels: fields(request.body, 'channels'),
          quota: {
            limit: wholeOr(field(request.body, 'quotaLimit'), deps.config.QUOTA_DEFAULT_LIMIT),
            windowSeconds: wholeOr(field(request.body, 'quotaWindowSeconds'), deps.config.QUOTA_DEFAULT_WINDOW_SECONDS),
          },
        }),
      (notice, status) => listPage(request, reply, deps, notice, status),
    );
    if ('shown' in result) return result.shown;
    return reply.redirect(`/console/partners/${result.done.id}?done=created`, 303);
  });

  app.get<{ Params: { id: string } }>('/partners/:id', (request, reply) =>
    detailPage(request, reply, deps, request.params.id, null, 200),
  );

  app.post<{ Params: { id: string } }>('/partners/:id', async (request, reply) => {
    const ctx = operatorContext(request, deps);
    const { id } = request.params;
    const action = field(request.body, 'action');
    const result = await attempt(
      async () => {
        if (action === 'suspend' || action === 'reactivate')
          return setPartnerStatus(
            ctx,
            id,
            action === 'suspend' ? 'suspended' : 'active',
            field(request.body, 'reason') || undefined,
          );
        return changePartner(ctx, id, {
          channels: fields(request.body, 'channels'),
          quotaLimit: wholeOr(field(request.body, 'quotaLimit'), undefined),
          quotaWindowSeconds: wholeOr(field(request.body, 'quotaWindowSeconds'), undefined),
        });
      },
      (notice, status) => detailPage(request, reply, deps, id, notice, status),
    );
    if ('shown' in result) return result.shown;
    return reply.redirect(`/console/partners/${result.done.id}?done=${action === 'update' ? 'updated' : action}`, 303);
  });
};

async function listPage(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: ConsoleDeps,
  notice: Notice,
  status: number,
) {
  const session = sessionOf(request);
  const ctx = operatorContext(request, deps);
  const [partners, channels] = await Promise.all([listPartners(ctx), listChannelsWithUsage(ctx)]);
  const table = dataTable(
    partners,
    [
      { header: 'Name', cell: (p) => link(`/console/partners/${p.id}`, p.name) },
      { header: 'Status', text: (p) => p.status },
      { header: 'Channels', text: (p) => p.channels },
      { header: 'Quota', text: (p) => `${p.quota_limit} / ${p.quota_window_seconds} s` },
      { header: 'Usable credentials', text: (p) => p.usableCredentials, numeric: true },
    ],
    { caption: 'Partners', empty: 'No partners yet.' },
  );
  const form = canChange(session)
    ? html`<form class="card" method="post" action="/console/partners">
        <h2>New partner</h2>
        !${csrfField(session)}
        <p>
          <label for="name">Name</label
          ><input id="name" name="name" required maxlength="200" value="${notice ? field(request.body, 'name') : ''}" />
        </p>
        !${channelBoxes(
          channels.map((c) => c.name),
          notice ? fields(request.body, 'channels') : [],
        )}
        !${quotaFields(deps.config.QUOTA_DEFAULT_LIMIT, deps.config.QUOTA_DEFAULT_WINDOW_SECONDS)}
        <p><button type="submit">Create partner</button></p>
      </form>`
    : readOnlyNote('partners');
  return sendPage(reply, status, { title: 'Partners', section: 'partners', session, notice }, html`!${table}!${form}`);
}

const DONE: Record<string, string> = {
  created: 'Partner created. Issue its credentials on the Credentials page.',
  updated: 'Partner changed.',
  suspend: 'Partner suspended: its calls are refused within the credential cache time.',
  reactivate: 'Partner reactivated.',
  'contact-added': 'Contact added.',
  'contact-removed': 'Contact removed.',
};

export async function detailPage(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: ConsoleDeps,
  id: string,
  notice: Notice,
  status: number,
) {
  const session = sessionOf(request);
  const ctx = operatorContext(request, deps);
  const [partner, channels, contacts, notices] = await Promise.all([
    showPartner(ctx, id),
    listChannelsWithUsage(ctx),
    listContacts(ctx, id),
    listNotices(ctx, id),
  ]);
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
    status,
    {
      title: partner.name,
      section: 'partners',
      session,
      notice: notice ?? (done ? { kind: 'ok', text: done } : null),
    },
    html`!${summary}!${links}!${contactsSection(partner.id, contacts, session)}!${noticesSection(notices)}!${forms}`,
  );
}

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
