import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { sameToken } from '../../console/guard.js';
import { field, param } from '../../console/route-context.js';
import { throttleUnit } from '../../domain/client-address.js';
import { audit, AuditActions } from '../../services/operators/audit.js';
import {
  PORTAL_PENDING_COOKIE,
  PORTAL_SESSION_COOKIE,
  PORTAL_SIGNIN_CSRF_COOKIE,
  type PortalDeps,
  type PortalPage,
} from '../route-context.js';
import { sendPage } from '../views/layout.js';

/**
 * Sign in (e-mail and password, then a TOTP or recovery code) and sign out. The first form has its own CSRF token
 * (a cookie matched by a form field); the second carries the half session's. Every refusal counts against the
 * source address only (AuthThrottle): accounts are never locked.
 */
export const signInPages: PortalPage = (app, deps) => {
  passwordStep(app, deps);
  codeStep(app, deps);
  signOut(app, deps);
};

const passwordStep: PortalPage = (app, deps) => {
  app.get('/sign-in', { config: { portalPublic: true } }, async (request, reply) => {
    if (request.portalSession) return reply.redirect('/portal', 303);
    return passwordForm(request, reply, deps, 200, null);
  });

  app.post('/sign-in', { config: { portalPublic: true } }, async (request, reply) => {
    if (!sameToken(field(request.body, '_csrf'), request.cookies[PORTAL_SIGNIN_CSRF_COOKIE] ?? ''))
      return passwordForm(request, reply, deps, 403, 'The sign-in form had expired. Please try again.');
    const wait = throttled(request, reply, deps);
    if (wait) return passwordForm(request, reply, deps, 429, wait);
    const result = await deps.sessions.signIn(field(request.body, 'email'), field(request.body, 'password'));
    if ('refused' in result) {
      request.log.info('portal: sign-in refused');
      await deps.signInThrottle.recordFailure({ address: throttleUnit(request.ip) });
      return passwordForm(request, reply, deps, 401, 'Wrong e-mail or password.');
    }
    reply.clearCookie(PORTAL_SIGNIN_CSRF_COOKIE, { path: '/portal' });
    reply.setCookie(PORTAL_PENDING_COOKIE, result.pendingToken, cookieOptions(deps));
    const next = safeNext(field(request.body, 'next'));
    return reply.redirect(`/portal/sign-in/code?next=${encodeURIComponent(next)}`, 303);
  });
};

const codeStep: PortalPage = (app, deps) => {
  app.get('/sign-in/code', { config: { portalPublic: true } }, async (request, reply) => {
    const pending = await pendingOf(request, deps);
    if (!pending) return reply.redirect('/portal/sign-in', 303);
    return codeForm(request, reply, pending.csrfToken, 200, null);
  });

  app.post('/sign-in/code', { config: { portalPublic: true } }, async (request, reply) => {
    const token = request.cookies[PORTAL_PENDING_COOKIE] ?? '';
    const pending = await pendingOf(request, deps);
    if (!pending) return reply.redirect('/portal/sign-in', 303);
    if (!sameToken(field(request.body, '_csrf'), pending.csrfToken))
      return codeForm(request, reply, pending.csrfToken, 403, 'The form had expired. Please try again.');
    const wait = throttled(request, reply, deps);
    if (wait) return codeForm(request, reply, pending.csrfToken, 429, wait);
    const result = await deps.sessions.secondStep(token, field(request.body, 'code'));
    if ('refused' in result) {
      if (result.refused === 'expired') return reply.redirect('/portal/sign-in', 303);
      await deps.signInThrottle.recordFailure({ address: throttleUnit(request.ip) });
      return codeForm(request, reply, pending.csrfToken, 401, 'That code was not accepted. Try the current one.');
    }
    const actor = { db: deps.db, now: deps.now, operator: `portal:${result.session.email}` };
    const details = { user: result.session.userId };
    if (result.recoveryCodeUsed)
      await audit(actor, AuditActions.portalRecoveryCodeUsed, result.session.partnerId, details);
    await audit(actor, AuditActions.portalSignIn, result.session.partnerId, details);
    reply.clearCookie(PORTAL_PENDING_COOKIE, { path: '/portal' });
    reply.setCookie(PORTAL_SESSION_COOKIE, result.token, cookieOptions(deps));
    return reply.redirect(safeNext(field(request.body, 'next')), 303);
  });
};

const signOut: PortalPage = (app, deps) => {
  app.post('/sign-out', async (request, reply) => {
    const token = request.cookies[PORTAL_SESSION_COOKIE];
    const session = request.portalSession!;
    if (token) await deps.sessions.signOut(token);
    await audit(
      { db: deps.db, now: deps.now, operator: `portal:${session.email}` },
      AuditActions.portalSignOut,
      session.partnerId,
      { user: session.userId },
    );
    reply.clearCookie(PORTAL_SESSION_COOKIE, { path: '/portal' });
    return reply.redirect('/portal/sign-in?signedOut=1', 303);
  });
};

/** HttpOnly, SameSite=Strict, Path=/portal (never sent to the console or the API), Secure behind TLS. */
const cookieOptions = (deps: PortalDeps) =>
  ({ path: '/portal', httpOnly: true, sameSite: 'strict', secure: deps.secureCookie }) as const;

async function pendingOf(request: FastifyRequest, deps: PortalDeps) {
  const token = request.cookies[PORTAL_PENDING_COOKIE];
  return token ? deps.sessions.pending(token) : null;
}

function throttled(request: FastifyRequest, reply: FastifyReply, deps: PortalDeps): string | null {
  const wait = deps.signInThrottle.retryAfterSeconds(throttleUnit(request.ip));
  if (wait === null) return null;
  reply.header('retry-after', String(wait));
  return `Too many failed sign-ins from your address. Try again in ${wait} s.`;
}

function passwordForm(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PortalDeps,
  status: number,
  error: string | null,
) {
  const token = randomBytes(24).toString('base64url');
  reply.setCookie(PORTAL_SIGNIN_CSRF_COOKIE, token, cookieOptions(deps));
  const next = field(request.body, 'next') || param(request, 'next');
  const notice = error
    ? { kind: 'error' as const, text: error }
    : param(request, 'signedOut')
      ? { kind: 'ok' as const, text: 'You are signed out.' }
      : null;
  const body = html`<form class="card narrow" method="post" action="/portal/sign-in">
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
    <p><button type="submit">Continue</button></p>
    <p class="hint">Your partner’s admin, or the foundation, invites you by e-mail.</p>
  </form>`;
  return sendPage(reply, status, { title: 'Sign in', notice }, body);
}

function codeForm(request: FastifyRequest, reply: FastifyReply, csrf: string, status: number, error: string | null) {
  const next = field(request.body, 'next') || param(request, 'next');
  const notice = error ? { kind: 'error' as const, text: error } : null;
  const body = html`<form class="card narrow" method="post" action="/portal/sign-in/code">
    <input type="hidden" name="_csrf" value="${csrf}" />
    <input type="hidden" name="next" value="${next}" />
    <p>
      <label for="code">Code from your authenticator app, or a recovery code</label
      ><input id="code" name="code" type="text" autocomplete="one-time-code" required autofocus maxlength="40" />
    </p>
    <p><button type="submit">Sign in</button></p>
  </form>`;
  return sendPage(reply, status, { title: 'Second step', notice }, body);
}

/** Only a portal path: a crafted link must not send a freshly signed-in user to another site. */
function safeNext(next: string): string {
  return /^\/portal(\/[^/\\]|$|\?)/.test(next) && !next.includes('//') ? next : '/portal';
}
