import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { sameToken } from '../guard.js';
import {
  LOGIN_CSRF_COOKIE,
  SESSION_COOKIE,
  field,
  param,
  type ConsolePage,
  type ConsoleDeps,
} from '../route-context.js';
import { sendPage } from '../views/layout.js';
import { throttleUnit } from '../../domain/client-address.js';

/** Sign in and sign out. The sign-in form has its own CSRF token (a cookie matched by a form field). */
export const loginPages: ConsolePage = (app, deps) => {
  app.get('/login', { config: { consolePublic: true } }, async (request, reply) => {
    if (request.consoleSession) return reply.redirect('/console', 303);
    return loginForm(request, reply, deps, 200, null);
  });

  app.post('/login', { config: { consolePublic: true } }, async (request, reply) => {
    const sent = field(request.body, '_csrf');
    if (!sameToken(sent, request.cookies[LOGIN_CSRF_COOKIE] ?? ''))
      return loginForm(request, reply, deps, 403, 'The sign-in form had expired. Please try again.');
    const wait = deps.signInThrottle.retryAfterSeconds(throttleUnit(request.ip));
    if (wait !== null) {
      reply.header('retry-after', String(wait));
      return loginForm(
        request,
        reply,
        deps,
        429,
        `Too many failed sign-ins from your address. Try again in ${wait} s.`,
      );
    }
    const result = await deps.sessions.login(field(request.body, 'email'), field(request.body, 'password'));
    if ('refused' in result) {
      request.log.info({ reason: result.refused }, 'console: sign-in refused');
      await deps.signInThrottle.recordFailure({ address: throttleUnit(request.ip) });
      const message =
        result.refused === 'locked'
          ? 'Too many failed attempts: this account is locked for a while. Try later, or ask an admin to reset it.'
          : 'Wrong e-mail or password.';
      return loginForm(request, reply, deps, 401, message);
    }
    reply.clearCookie(LOGIN_CSRF_COOKIE, { path: '/console' });
    reply.setCookie(SESSION_COOKIE, result.token, cookieOptions(deps));
    return reply.redirect(safeNext(field(request.body, 'next')), 303);
  });

  app.post('/logout', { config: { consoleAnyRole: true } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deps.sessions.logout(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/console' });
    return reply.redirect('/console/login?signedOut=1', 303);
  });
};

/** HttpOnly (no script reads it), SameSite=Strict (never sent by another site's form), Secure behind TLS. */
const cookieOptions = (deps: ConsoleDeps) =>
  ({ path: '/console', httpOnly: true, sameSite: 'strict', secure: deps.secureCookie }) as const;

function loginForm(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: ConsoleDeps,
  status: number,
  error: string | null,
) {
  const token = randomBytes(24).toString('base64url');
  reply.setCookie(LOGIN_CSRF_COOKIE, token, cookieOptions(deps));
  const next = field(request.body, 'next') || param(request, 'next');
  const notice = error
    ? { kind: 'error' as const, text: error }
    : param(request, 'signedOut')
      ? { kind: 'ok' as const, text: 'You are signed out.' }
      : null;
  const body = html`<form class="card narrow" method="post" action="/console/login">
    <input type="hidden" name="_csrf" value="${token}" />
    <input type="hidden" name="next" value="${next}" />
    <p>
      <label for="email">E-mail</label
      ><input
        id="email"
        name="email"
        type="email"
        autocomplete="username"
        required
        autofocus
        value="${field(request.body, 'email')}"
      />
    </p>
    <p>
      <label for="password">Password</label
      ><input id="password" name="password" type="password" autocomplete="current-password" required />
    </p>
    <p><button type="submit">Sign in</button></p>
    <p class="hint">Operator accounts are created with <code>fundraiser-admin operators create</code>.</p>
  </form>`;
  return sendPage(reply, status, { title: 'Sign in', notice }, body);
}

/** Only a console path: a crafted link must not send a freshly signed-in operator to another site. */
function safeNext(next: string): string {
  return /^\/console(\/[^/\\]|$|\?)/.test(next) && !next.includes('//') ? next : '/console';
}
