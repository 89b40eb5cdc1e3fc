import { sameSecret } from '../domain/constant-time.js';
import type { App } from '../http/route-context.js';
import { errorPage } from './pages/error-page.js';
import { SESSION_COOKIE, field, type ConsoleDeps } from './route-context.js';

/**
 * Who may do what in the console, checked for every route of it (its protective headers, a CSP without inline
 * script or style among them, are the whole service's: src/http/plugins/security-headers.ts):
 * - a session for everything but the sign-in page and the static files (others are sent to sign in);
 * - on every POST, the session's CSRF token in the form (or the X-CSRF-Token header), compared in constant time,
 *   and, unless the route says otherwise, the admin role: a viewer reads and never changes anything.
 */
export function registerGuard(app: App, deps: ConsoleDeps) {
  app.decorateRequest('consoleSession', null);
  app.addHook('onRequest', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.consoleSession = await deps.sessions.resolve(token);
    if (request.routeOptions.config.consolePublic || request.consoleSession) return;
    if (request.method === 'GET') {
      const next = encodeURIComponent(request.url);
      return reply.redirect(`/console/login?next=${next}`, 303);
    }
    return errorPage(request, reply, 401, 'You are signed out. Sign in again, then repeat the change.');
  });
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || request.routeOptions.config.consolePublic) return;
    const session = request.consoleSession!;
    const header = request.headers['x-csrf-token'];
    const sent = field(request.body, '_csrf') || (typeof header === 'string' ? header : '');
    if (!sameToken(sent, session.csrfToken)) {
      request.log.warn(
        { operator: session.email, url: request.url },
        'console: form refused without a valid CSRF token',
      );
      return errorPage(
        request,
        reply,
        403,
        'This form was refused: it did not carry the console’s security token. Reload the page and try again.',
      );
    }
    if (session.role !== 'admin' && !request.routeOptions.config.consoleAnyRole)
      return errorPage(request, reply, 403, 'Your role (viewer) can read but not change anything.');
  });
}

export function sameToken(sent: string, expected: string): boolean {
  return sent.length > 0 && sameSecret(sent, expected);
}
