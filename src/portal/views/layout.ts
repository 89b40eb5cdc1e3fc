import type { FastifyReply } from 'fastify';
import type { FastifyRequest } from 'fastify';
import { may, type PortalArea } from '../../domain/portal-roles.js';
import { sendFramedPage, type Frame } from '../../console/views/frame.js';
import { shellListPage, type ListPage, type ListRoutes } from '../../console/views/list-page.js';
import type { Kit, PageOptions as KitPageOptions, Shell } from '../../console/views/shell.js';
import type { PortalSession } from '../../services/portal/sessions.js';
import { portalContext, portalSessionOf, type PortalContext, type PortalDeps } from '../route-context.js';

/** The portal as a site of the console's page kit (docs/decisions/0083-portal-shares-the-console-kit.md). */
export type Section = 'overview' | 'requests' | 'usage' | 'webhooks' | 'credentials' | 'money' | 'sandbox' | 'users';

export interface PortalKit extends Kit {
  deps: PortalDeps;
  session: PortalSession;
  ctx: PortalContext;
  section: Section;
}

export type PageOptions = KitPageOptions<PortalKit>;

/**
 * The navigation: each entry with the area a role must be able to read to see it. A list page not yet built is left
 * out until it lands (its line is added here with its page).
 */
const NAV: [Section, string, string, PortalArea | null][] = [
  ['overview', 'Overview', '/portal', null],
  ['webhooks', 'Webhooks', '/portal/webhooks', 'webhooks'],
  ['credentials', 'Credentials', '/portal/credentials', 'credentials'],
  ['money', 'Money', '/portal/money', 'money'],
  ['users', 'Users', '/portal/users', 'users'],
  ['requests', 'Requests', '/portal/requests', 'request-log'],
  ['usage', 'Usage', '/portal/usage', 'usage'],
];

const portalFrame: Frame<PortalKit> = {
  name: 'Partner portal',
  home: '/portal',
  stylesheet: '/portal/static/portal.css',
  script: '/portal/static/portal.js',
  nav: (session) =>
    NAV.filter(([, , , area]) => area === null || may(session.role, 'read', area)).map(
      ([id, label, href]) => [id, label, href] as const,
    ),
  signOut: '/portal/sign-out',
  who: (session) => `${session.email} · ${session.partnerName} (${session.role})`,
};

/** Answers with a whole portal page. */
export function sendPage(reply: FastifyReply, status: number, options: PageOptions, body: string): FastifyReply {
  return sendFramedPage(portalFrame, reply, status, options, body);
}

const portalShell: Shell<PortalKit> = {
  prefix: '/portal',
  sendPage,
  sessionOf: (request: FastifyRequest) => portalSessionOf(request),
  contextOf: (request, deps) => portalContext(request, deps),
};

/** A portal list page, described as the console's are (views/list-page.ts). */
export function portalListPage<Row>(page: ListPage<Row, PortalKit>): ListRoutes<PortalKit> {
  return shellListPage(portalShell, page);
}
