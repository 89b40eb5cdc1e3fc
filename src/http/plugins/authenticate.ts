import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { routeOf } from '../route-of.js';
import { sameSecret } from '../../domain/constant-time.js';
import { ApiError } from '../../api-errors.js';
import type { Counter } from 'prom-client';
import { throttleUnit } from '../../domain/client-address.js';
import type { AuthThrottle } from '../../services/auth-throttle.js';
import type { CredentialVerifier, Rejection, Verdict } from '../../services/credential-verifier.js';
import type { Principal } from '../../domain/principal.js';

export interface AuthenticateOptions {
  verifier: CredentialVerifier;
  requireBasic: boolean;
  throttle: AuthThrottle;
  /** Failed authentications by kind (a fixed set of label values). */
  failures: Counter<'reason'>;
}

/** Every kind of failure, as counted in the metric; a fixed set, so the label stays bounded. */
type FailureKind = 'missing' | 'basic-mismatch' | Rejection;

/** One body for every authentication failure: it never says which value was wrong (section 5.1). */
const unauthorized = () => new ApiError('UNAUTHORIZED', 'Invalid or missing client credentials');

/**
 * Credentials: the client_id and client_secret headers (section 5.1). Authorization: Basic is accepted beside
 * them and, when present, must name the same pair; a deployment can require it
 * (docs/decisions/0005-credentials-headers-basic-and-one-401.md).
 */
export const authenticatePlugin = fp<AuthenticateOptions>(
  async (app: FastifyInstance, options) => {
    app.decorateRequest('principal', null);
    // Callback style: a request whose credential is cached is checked without a promise or a turn of the loop.
    app.addHook('onRequest', (request, _reply, done) => {
      const route = routeOf(request);
      if (route.config?.public || !route.url) return done();
      let outcome: Principal | Promise<Principal>;
      try {
        outcome = authenticate(request, options);
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
function authenticate(request: FastifyRequest, options: AuthenticateOptions): Principal | Promise<Principal> {
  const { verifier, requireBasic, throttle } = options;
  // request.ip is the client's address: the socket's peer, or what trusted proxies (TRUST_PROXY) say it was.
  const address = throttleUnit(request.ip);
  // A locked-out address is refused before its credential is even looked at.
  const retryAfter = throttle.retryAfterSeconds(address);
  if (retryAfter !== null)
    throw new ApiError('AUTHENTICATION_THROTTLED', `Too many failed authentications; retry in ${retryAfter} s`, {
      'retry-after': String(retryAfter),
    });
  const clientId = header(request, 'client_id');
  const clientSecret = header(request, 'client_secret');
  const basic = basicCredentials(request);
  // What a refusal logs and counts is made only for a refusal: an accepted request allocates nothing here.
  if (!clientId || !clientSecret)
    return refuse({ request, options, address }, clientId, 'missing', 'missing credentials');
  if (basic === 'malformed' || (basic && !(basic.id === clientId && sameSecret(basic.secret, clientSecret))))
    return refuse({ request, options, address }, clientId, 'basic-mismatch', 'Authorization header does not match');
  if (requireBasic && !basic)
    return refuse({ request, options, address }, clientId, 'basic-mismatch', 'Authorization header required');
  const verdict = verifier.verify(clientId, clientSecret);
  if (verdict instanceof Promise) return verdict.then((v) => decide(request, options, address, clientId, v));
  return decide(request, options, address, clientId, verdict);
}

function decide(
  request: FastifyRequest,
  options: AuthenticateOptions,
  address: string,
  clientId: string,
  verdict: Verdict,
): Principal | Promise<Principal> {
  if ('rejected' in verdict) return refuse({ request, options, address }, clientId, verdict.rejected, verdict.detail);
  return verdict.principal;
}

/**
 * Logs and counts a failed authentication, then refuses with the one answer every failure gets. A guess counts
 * against the address (the throttle); the right secret of a credential that cannot be used now is no guess, so a
 * suspended partner's own calls never lock its servers out once it is reactivated.
 */
async function refuse(
  { request, options, address }: { request: FastifyRequest; options: AuthenticateOptions; address: string },
  clientId: string | undefined,
  kind: FailureKind,
  reason: string,
): Promise<never> {
  request.log.info({ clientId, reason }, 'authentication failed');
  options.failures.inc({ reason: kind });
  if (kind !== 'unusable')
    await options.throttle.recordFailure({
      address,
      ...(kind === 'wrong-secret' && clientId !== undefined ? { guessedClientId: clientId } : {}),
    });
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
