import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/route-context.js';
import { registerPortalGuard } from './guard.js';
import { notFoundPage, portalErrorHandler } from './pages/error-page.js';
import { invitationPages } from './pages/invitation.js';
import { overviewPage } from './pages/overview.js';
import { signInPages } from './pages/sign-in.js';
import { requestsPages } from './pages/requests.js';
import { usagePage } from './pages/usage.js';
import { usersPages } from './pages/users.js';
import { credentialsPages } from './pages/credentials.js';
import { webhooksPages } from './pages/webhooks.js';
import { moneyPages } from './pages/money.js';
import { sandboxPages } from './pages/sandbox.js';
import type { PortalDeps, PortalPage } from './route-context.js';

/** Every page of the portal; a new page appends its registration here. */
const pages: PortalPage[] = [
  signInPages,
  invitationPages,
  overviewPage,
  usersPages,
  credentialsPages,
  requestsPages,
  usagePage,
  webhooksPages,
  moneyPages,
  sandboxPages,
];

/**
 * The portal's own content security policy: the console's (src/http/plugins/security-headers.ts) narrowed — no
 * data: images (the TOTP QR code is inline SVG), no fonts, and forms post to the portal only.
 */
const PORTAL_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The partner portal, mounted at /portal in its own encapsulated scope as the console is: its body parser (forms),
 * cookies (Path=/portal), guard, CSP and HTML error pages apply to it alone, and its routes are kept out of the
 * partner API's OpenAPI document.
 */
export async function portalPlugin(app: App, deps: PortalDeps) {
  app.addHook('onRoute', (route) => {
    // The API's checks (correlation id, credentials, quota) do not apply to the portal; its guard does.
    route.config = { ...route.config, public: true };
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html'))
      reply.header('content-security-policy', PORTAL_POLICY);
    done(null, payload);
  });
  registerPortalGuard(app, deps);
  app.setErrorHandler(portalErrorHandler);
  registerStatic(app);
  for (const register of pages) register(app, deps);
  registerNotFound(app);
}

/** Every other address under /portal is the portal's 404 page (signed in or not), as the console's. */
function registerNotFound(app: App) {
  const notFound = (request: FastifyRequest, reply: FastifyReply) => notFoundPage(request, reply);
  app.all('/*', { config: { portalPublic: true } }, notFound);
  app.setNotFoundHandler(notFound);
}

/** The console's stylesheet and script (one look for both sites) with the portal's additions, under /portal. */
function registerStatic(app: App) {
  const consoleFile = (name: string) => readFileSync(new URL(`../console/static/${name}`, import.meta.url), 'utf8');
  const own = (name: string) => readFileSync(new URL(`./static/${name}`, import.meta.url), 'utf8');
  const files: Record<string, [string, string]> = {
    'portal.css': ['text/css', consoleFile('console.css') + own('portal.css')],
    'portal.js': ['text/javascript', consoleFile('console.js')],
  };
  for (const [name, [type, body]] of Object.entries(files))
    app.get(`/static/${name}`, { config: { portalPublic: true } }, async (_request, reply) =>
      reply.type(`${type}; charset=utf-8`).header('cache-control', 'public, max-age=300').send(body),
    );
}
