import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sameSecret } from '../../domain/constant-time.js';
import { ApiError } from '../../errors.js';
import type { AuthThrottle } from '../../services/auth-throttle.js';
import type { CredentialVerifier } from '../../services/credential-verifier.js';

export interface AuthenticateOptions {
  verifier: CredentialVerifier;
  requireBasic: boolean;
  throttle: AuthThrottle;
}

/** One body for every authentication failure: it never says which value was wrong (section 5.1). */
const unauthorized = () => new ApiError('UNAUTHORIZED', 'Invalid or missing client credentials');

/**
 * Credentials: the client_id and client_secret headers (section 5.1). Authorization: Basic is accepted beside
 * them and, when present, must name the same pair; a deployment can require it (DESIGN.md §4).
 */
export const authenticatePlugin = fp<AuthenticateOptions>(
  async (app: FastifyInstance, { verifier, requireBasic, throttle }) => {
    app.decorateRequest('principal', null);
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config?.public || !request.routeOptions.url) return;
      const clientId = header(request, 'client_id');
      const clientSecret = header(request, 'client_secret');
      // A locked-out client id or address is refused before its secret is even looked at.
      const retryAfter = throttle.retryAfterSeconds(clientId, request.ip);
      if (retryAfter !== null)
        throw new ApiError('AUTHENTICATION_THROTTLED', `Too many failed authentications; retry in ${retryAfter} s`, {
          'retry-after': String(retryAfter),
        });
      const basic = basicCredentials(request);
      if (!clientId || !clientSecret) throw await failure(request, throttle, clientId, 'missing credentials');
      if (basic === 'malformed' || (basic && !(basic.id === clientId && sameSecret(basic.secret, clientSecret))))
        throw await failure(request, throttle, clientId, 'Authorization header does not match');
      if (requireBasic && !basic) throw await failure(request, throttle, clientId, 'Authorization header required');
      const result = await verifier.verify(clientId, clientSecret);
      if ('rejected' in result) throw await failure(request, throttle, clientId, result.rejected);
      request.principal = result.principal;
    });
  },
  { name: 'authenticate', dependencies: ['correlation-id'] },
);

/** Logs and counts a failed authentication (the throttle), then gives the one answer every failure gets. */
async function failure(request: FastifyRequest, throttle: AuthThrottle, clientId: string | undefined, reason: string) {
  request.log.info({ clientId, reason }, 'authentication failed');
  await throttle.recordFailure(clientId, request.ip);
  return unauthorized();
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) || undefined;
}

function basicCredentials(request: FastifyRequest): { id: string; secret: string } | 'malformed' | null {
  const authorization = header(request, 'authorization');
  if (!authorization) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match?.[1]) return 'malformed';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
