import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { refusal } from '../../console/views/change-route.js';
import { field } from '../../console/route-context.js';
import { choosePassword, confirmEnrolment, enrolment, openInvitation } from '../../services/portal/acceptance.js';
import { portalUserSettings, type PortalUserRow } from '../../services/portal/users.js';
import type { PortalDeps, PortalPage } from '../route-context.js';
import { errorPage } from './error-page.js';
import { sendPage } from '../views/layout.js';
import type { Notice } from '../../console/route-context.js';

type Invitation = { Params: { token: string } };

/**
 * Accepting an invitation (the one-time link of the mail): a password, then the authenticator app (its QR code and
 * the secret in words) confirmed by a code, then the recovery codes, shown once. The link is the credential of these
 * steps (its token in the path; the portal sends no Referer), so their forms need no other token; an unknown, used or
 * expired link gets one answer.
 */
export const invitationPages: PortalPage = (app, deps) => {
  const settings = portalUserSettings(deps.config);
  const ctx = () => ({ db: deps.db, now: deps.now, operator: 'portal:invitation' });
  const open = (request: FastifyRequest<Invitation>) => openInvitation(ctx(), request.params.token);

  app.get<Invitation>('/invitation/:token', { config: { portalPublic: true } }, async (request, reply) => {
    const user = await open(request);
    if (!user) return gone(request, reply);
    return user.totp_secret
      ? enrolPage(reply, deps, request.params.token, user, null, 200)
      : passwordPage(reply, request.params.token, user, null, 200);
  });

  app.post<Invitation>('/invitation/:token/password', { config: { portalPublic: true } }, async (request, reply) => {
    const user = await open(request);
    if (!user) return gone(request, reply);
    try {
      await choosePassword(ctx(), settings, user, field(request.body, 'password'), field(request.body, 'confirm'));
    } catch (err) {
      const { notice, status } = refusal(err);
      return passwordPage(reply, request.params.token, user, notice, status);
    }
    return reply.redirect(`/portal/invitation/${request.params.token}`, 303);
  });

  app.post<Invitation>('/invitation/:token/enrol', { config: { portalPublic: true } }, async (request, reply) => {
    const user = await open(request);
    if (!user) return gone(request, reply);
    if (!user.totp_secret) return reply.redirect(`/portal/invitation/${request.params.token}`, 303);
    let codes: string[];
    try {
      codes = await confirmEnrolment(ctx(), settings, user, field(request.body, 'code'));
    } catch (err) {
      const { notice, status } = refusal(err);
      return enrolPage(reply, deps, request.params.token, user, notice, status);
    }
    const body = html`<p>
        Your account is ready. These recovery codes each replace a code from your app once, if you lose it. They are
        shown only now: keep them somewhere safe.
      </p>
      <ul class="codes">
        !${codes.map((c) => html`<li>${c}</li>`)}
      </ul>
      <p><a href="/portal/sign-in">Sign in</a></p>`;
    reply.header('cache-control', 'no-store');
    return sendPage(reply, 200, { title: 'Your recovery codes' }, body);
  });
};

const gone = (request: FastifyRequest, reply: FastifyReply) =>
  errorPage(request, reply, 404, 'This invitation link is unknown, was used, or has expired. Ask for a new one.');

function passwordPage(reply: FastifyReply, token: string, user: PortalUserRow, notice: Notice, status: number) {
  const body = html`<p>You are invited to ${user.partner_name}’s partner portal as ${user.role}, as ${user.email}.</p>
    <form class="card narrow" method="post" action="/portal/invitation/${token}/password">
      <input type="text" name="username" autocomplete="username" value="${user.email}" hidden />
      <p>
        <label for="password">Choose a password (at least 12 characters, not easy to guess)</label
        ><input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minlength="12"
          maxlength="200"
        />
      </p>
      <p>
        <label for="confirm">The same password again</label
        ><input id="confirm" name="confirm" type="password" autocomplete="new-password" required maxlength="200" />
      </p>
      <p><button type="submit">Continue</button></p>
    </form>`;
  return sendPage(reply.header('cache-control', 'no-store'), status, { title: 'Accept the invitation', notice }, body);
}

function enrolPage(
  reply: FastifyReply,
  deps: PortalDeps,
  token: string,
  user: PortalUserRow,
  notice: Notice,
  status: number,
) {
  const { secret, uri, qrSvg } = enrolment(portalUserSettings(deps.config), user);
  const qr = qrSvg.replace('<svg ', '<svg role="img" aria-label="QR code of your authenticator set-up link" ');
  const body = html`<p>
      Scan this code with your authenticator app (any TOTP app), then type the 6-digit code it shows.
    </p>
    <div class="qr">!${qr}</div>
    <p>Or enter this key by hand: <code class="secret" id="totp-secret">${secret}</code></p>
    <p>Set-up link: <code class="secret" id="totp-uri">${uri}</code></p>
    <form class="card narrow" method="post" action="/portal/invitation/${token}/enrol">
      <p>
        <label for="code">Code from your app</label
        ><input
          id="code"
          name="code"
          type="text"
          inputmode="numeric"
          autocomplete="one-time-code"
          required
          maxlength="10"
        />
      </p>
      <p><button type="submit">Confirm</button></p>
    </form>`;
  return sendPage(
    reply.header('cache-control', 'no-store'),
    status,
    { title: 'Set up your authenticator app', notice },
    body,
  );
}
