import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { routeOf } from '../route-of.js';
import helmet from 'helmet';

export interface SecurityHeadersOptions {
  /** Strict-Transport-Security on every response (TLS is terminated in front of the service). */
  hsts: boolean;
  /** Origins a browser may call the API from; empty: no response grants cross-origin access. */
  corsAllowedOrigins: string[];
}

/**
 * The policy of a JSON (or any non-HTML) response: it loads nothing and may not be framed. A browser that renders
 * an API response by mistake (a link to it, a sniffing proxy) runs nothing in it.
 */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The policy of every HTML page (the docs page, the console, the sandbox's confirmation page): scripts, styles,
 * images, fonts and fetches from this origin only, and nothing inline — the pages load their script and stylesheet
 * as files. A page whose library inserts a fixed inline style lists that style's hash in its route's
 * `config.pageStyleHashes` (the docs page: openapi.ts); nothing else inline is allowed. Forms post to this origin
 * only; no page may be framed; no <base>. `img-src data:` is for the icons Swagger UI inlines as data: URLs.
 */
function htmlPagePolicy(styleHashes: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    ["style-src 'self'", ...styleHashes.map((hash) => `'${hash}'`)].join(' '),
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * Helmet configured for an API: its defaults, DENY framing, no referrer, HSTS by setting. The content security
 * policy is ours (above), set when the response's type is known.
 */
function helmetOptions(hsts: boolean): Parameters<typeof helmet>[0] {
  return {
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: hsts ? { maxAge: 31536000, includeSubDomains: true, preload: false } : false,
  };
}

/**
 * Helmet's headers (nosniff, DENY framing, no referrer, HSTS by setting), computed once by helmet itself: set with
 * one call per request, because running helmet's dozen middlewares on every request cost ~6% of GET /ping's CPU
 * (bench profile) for headers that never change.
 */
function helmetHeaders(hsts: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  } as unknown as ServerResponse;
  helmet(helmetOptions(hsts))({} as IncomingMessage, response, () => undefined);
  return headers;
}

/**
 * The protective headers of a JSON response as a list, for the answers given without Fastify's hooks: those
 * written straight to a socket (a timeout, an oversized request line, too many connections) and those of Fastify's
 * `frameworkErrors` (a malformed URL). The same headers as every other response.
 */
export function protectiveHeaders(hsts: boolean): [string, string][] {
  return [
    ...Object.entries(helmetHeaders(hsts)),
    ['content-security-policy', API_POLICY],
    ['cache-control', 'no-store'],
  ];
}

/**
 * Protective headers on every response of the service — partner API, operational endpoints, errors, 404s, the
 * OpenAPI document, the docs page, the console — set in this one place rather than per route (docs/security.md):
 * - helmet's headers (nosniff, DENY framing, no referrer, HSTS by setting; no X-Powered-By is ever sent);
 * - `Cache-Control: no-store` unless a route set its own (static stylesheets and scripts, which hold no data);
 * - the HTML page policy on every HTML response, the API policy on everything else;
 * - no CORS grant, unless CORS_ALLOWED_ORIGINS names origins.
 * Registered before every other hook, so that a request refused by an early hook still gets them.
 */
export const securityHeadersPlugin = fp<SecurityHeadersOptions>(
  async (app: FastifyInstance, { hsts, corsAllowedOrigins }) => {
    // Cache-Control and the API policy are set with the fixed headers, in one call: a route that sets its own
    // Cache-Control replaces it, and only an HTML answer's policy is changed when it is sent. Two header writes and
    // a route look-up less on every JSON answer (docs/performance/request-path.md).
    const fixed = { ...helmetHeaders(hsts), 'cache-control': 'no-store', 'content-security-policy': API_POLICY };
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(fixed);
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && type.startsWith('text/html'))
        reply.header('content-security-policy', htmlPagePolicy(routeOf(request).config?.pageStyleHashes));
      done(null, payload);
    });
    if (corsAllowedOrigins.length > 0)
      await app.register(cors, {
        origin: corsAllowedOrigins,
        methods: ['GET', 'POST', 'DELETE'],
        // What a browser client must read: the correlation id, idempotent replays, quotas and retry advice.
        exposedHeaders: [
          'x-correlation-id',
          'idempotent-replayed',
          'retry-after',
          'x-ratelimit-limit',
          'x-ratelimit-remaining',
          'x-ratelimit-reset',
          'location',
        ],
        maxAge: 600,
      });
  },
  { name: 'security-headers' },
);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Hashes ('sha256-…') of the fixed inline styles an HTML page's library inserts, allowed by its policy. */
    pageStyleHashes?: readonly string[];
  }
}
