import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sameSecret } from '../../domain/constant-time.js';
import { ApiError } from '../../errors.js';
import type { AuthThrottle } from '../../services/auth-throttle.js';
import type { CredentialVerifier, Verdict } from '../../services/credential-verifier.js';
import type { Principal } from '../../domain/principal.js';

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
    // Callback style: a request whose credential is cached is checked without a promise or a turn of the loop.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.routeOptions.config?.public || !request.routeOptions.url) return done();
      let outcome: Principal | Promise<Principal>;
      try {
        outcome = authenticate(request, { verifier, requireBasic, throttle });
      } catch (err) {
        return done(err as Error);
      }
      if (!(outcome instanceof Promise)) {
        request.principal = outcome;
        return done();
      }
      outcome.then((principal) => {
        request.principal = principal;
        done();
      }, done);
    });
  },
  { name: 'authenticate', dependencies: ['correlation-id'] },
);

/** The request's principal, or the one refusal every failure gets (thrown, or as the promise's rejection). */
function authenticate(
  request: FastifyRequest,
  { verifier, requireBasic, throttle }: AuthenticateOptions,
): Principal | Promise<Principal> {
  const clientId = header(request, 'client_id');
  const clientSecret = header(request, 'client_secret');
  // A locked-out client id or address is refused before its secret is even looked at.
  const retryAfter = throttle.retryAfterSeconds(clientId, request.ip);
  if (retryAfter !== null)
    throw new ApiError('AUTHENTICATION_THROTTLED', `Too many failed authentications; retry in ${retryAfter} s`, {
      'retry-after': String(retryAfter),
    });
  const basic = basicCredentials(request);
  if (!clientId || !clientSecret) return refuse(request, throttle, clientId, 'missing credentials');
  if (basic === 'malformed' || (basic && !(basic.id === clientId && sameSecret(basic.secret, clientSecret))))
    return refuse(request, throttle, clientId, 'Authorization header does not match');
  if (requireBasic && !basic) return refuse(request, throttle, clientId, 'Authorization header required');
  const verdict = verifier.verify(clientId, clientSecret);
  const decide = (v: Verdict): Principal | Promise<Principal> =>
    'rejected' in v ? refuse(request, throttle, clientId, v.rejected) : v.principal;
  return verdict instanceof Promise ? verdict.then(decide) : decide(verdict);
}

/** Logs and counts a failed authentication (the throttle), then refuses with the one answer every failure gets. */
async function refuse(
  request: FastifyRequest,
  throttle: AuthThrottle,
  clientId: string | undefined,
  reason: string,
): Promise<never> {
  request.log.info({ clientId, reason }, 'authentication failed');
  await throttle.recordFailure(clientId, request.ip);
  throw unauthorized();
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
