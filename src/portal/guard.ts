import { sameToken } from '../console/guard.js';
import { field } from '../console/route-context.js';
import { may } from '../domain/portal-roles.js';
import type { App } from '../http/route-context.js';
import { errorPage } from './pages/error-page.js';
import { PORTAL_SESSION_COOKIE, type PortalDeps } from './route-context.js';

/**
 * Who may do what in the portal, checked for every route of it:
 * - a session for everything but the public pages (sign-in, invitation, static files); others are sent to sign in;
 * - on every POST, the session's CSRF token in the form (or the X-CSRF-Token header), compared in constant time;
 * - the route's area (domain/portal-roles.ts): a GET needs the role to read it, a POST to change it.
 * Whose data a page shows is not the guard's: every service call is scoped by the session's partner.
 */
export function registerPortalGuard(app: App, deps: PortalDeps) {
  app.decorateRequest('portalSession', null);
  app.addHook('onRequest', async (request, reply) => {
    const token = request.cookies[PORTAL_SESSION_COOKIE];
    if (token) request.portalSession = await deps.sessions.resolve(token);
    if (request.routeOptions.config.portalPublic || request.portalSession) return;
    if (request.method === 'GET') return reply.redirect(`/portal/sign-in?next=${encodeURIComponent(request.url)}`, 303);
    return errorPage(request, reply, 401, 'You are signed out. Sign in again, then repeat the change.');
  });
  app.addHook('preHandler', async (request, reply) => {
    const { portalPublic, portalArea } = request.routeOptions.config;
    if (portalPublic) return;
    const session = request.portalSession!;
    if (request.method === 'POST') {
      const header = request.headers['x-csrf-token'];
      const sent = field(request.body, '_csrf') || (typeof header === 'string' ? header : '');
      if (!sameToken(sent, session.csrfToken)) {
        request.log.warn({ url: request.url }, 'portal: form refused without a valid CSRF token');
        return errorPage(
          request,
          reply,
          403,
          'This form was refused: it did not carry the portal’s security token. Reload the page and try again.',
        );
      }
    }
    if (portalArea && !may(session.role, request.method === 'GET' ? 'read' : 'change', portalArea))
      return errorPage(
        request,
        reply,
        403,
        `Your role (${session.role}) cannot ${request.method === 'GET' ? 'see' : 'change'} ${portalArea.replace('-', ' ')}.`,
      );
  });
}
