import type { FastifyBaseLogger } from 'fastify';
import type { Counter } from 'prom-client';
import type { Config } from '../config/index.js';
import type { Database } from '../infrastructure/db/connect.js';
import { AuthThrottle, sharedFailureCounter } from '../services/auth-throttle.js';

/**
 * The failed-authentication throttle of the partner API, its counts in the shared database, its events logged. Its
 * windows follow the application's clock, so tests that hold the clock still never see a window end between steps.
 */
export function authThrottle(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
  lockouts: Counter<string>,
  now: () => Date = () => new Date(),
): AuthThrottle {
  return new AuthThrottle({
    now: () => now().getTime(),
    limitPerAddress: config.AUTH_FAILURE_LIMIT_PER_ADDRESS,
    warnPerClient: config.AUTH_FAILURE_WARN_PER_CLIENT,
    windowMs: config.AUTH_FAILURE_WINDOW_SECONDS * 1000,
    counter: sharedFailureCounter(database.db, ''),
    onLockout: ({ address, failures, until }) => {
      lockouts.inc();
      log.warn({ address, failures, until: until.toISOString() }, 'authentication locked out for an address');
    },
    // The client id is not a secret (it is printed with the credential); the secret is never passed here.
    onGuessing: ({ clientId, failures, windowStart }) =>
      log.warn(
        { client_id: clientId, failures, windowStart: windowStart.toISOString() },
        'wrong secrets for a known client id: someone may be guessing it (rotate the credential if it goes on)',
      ),
    onError: (err) => log.warn({ err: (err as Error).message }, 'failed authentication not counted'),
  });
}

/**
 * The console's sign-in throttle by source address, on top of the per-account lock of ConsoleSessions: one address
 * trying many accounts is stopped too. Counted apart from the partner API's failures (another key scope), so a
 * partner's bad secrets never lock operators out of the console, nor the reverse.
 */
export function consoleSignInThrottle(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
  now: () => Date,
): AuthThrottle {
  return new AuthThrottle({
    now: () => now().getTime(),
    limitPerAddress: config.CONSOLE_SIGNIN_FAILURES_PER_ADDRESS,
    // Sign-ins carry no client id; accounts have their own lock.
    warnPerClient: Number.MAX_SAFE_INTEGER,
    windowMs: config.AUTH_FAILURE_WINDOW_SECONDS * 1000,
    counter: sharedFailureCounter(database.db, 'console-'),
    onLockout: ({ address, failures, until }) =>
      log.warn({ address, failures, until: until.toISOString() }, 'console sign-in locked out for an address'),
    onGuessing: () => undefined,
    onError: (err) => log.warn({ err: (err as Error).message }, 'failed console sign-in not counted'),
  });
}

/**
 * The partner portal's sign-in throttle by source address, counted apart from the API's and the console's. Portal
 * accounts have no lock of their own (docs/portal.md): a wrong password or code counts against the address only.
 */
export function portalSignInThrottle(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
  now: () => Date,
): AuthThrottle {
  return new AuthThrottle({
    now: () => now().getTime(),
    limitPerAddress: config.PORTAL_SIGNIN_FAILURES_PER_ADDRESS,
    warnPerClient: Number.MAX_SAFE_INTEGER,
    windowMs: config.AUTH_FAILURE_WINDOW_SECONDS * 1000,
    counter: sharedFailureCounter(database.db, 'portal-'),
    onLockout: ({ address, failures, until }) =>
      log.warn({ address, failures, until: until.toISOString() }, 'portal sign-in locked out for an address'),
    onGuessing: () => undefined,
    onError: (err) => log.warn({ err: (err as Error).message }, 'failed portal sign-in not counted'),
  });
}
