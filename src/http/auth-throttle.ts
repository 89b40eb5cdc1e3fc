import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../infrastructure/db/connect.js';
import { countAuthFailures, pruneAuthFailures } from '../infrastructure/repositories/auth-failures.js';
import { AuthThrottle, type FailureCounter } from '../services/auth-throttle.js';

/** The failed-authentication throttle of the partner API, its counts in the shared database, its lock-outs logged. */
export function authThrottle(config: Config, database: Database, log: FastifyBaseLogger): AuthThrottle {
  return new AuthThrottle({
    limitPerClient: config.AUTH_FAILURE_LIMIT_PER_CLIENT,
    limitPerAddress: config.AUTH_FAILURE_LIMIT_PER_ADDRESS,
    windowMs: config.AUTH_FAILURE_WINDOW_SECONDS * 1000,
    counter: sharedCounter(database, ''),
    // The client id is not a secret (it is printed with the credential); the secret is never passed here.
    onLockout: ({ key, value, failures, until }) =>
      log.warn({ [key]: value, failures, until: until.toISOString() }, 'authentication locked out'),
    onError: (err) => log.warn({ err: (err as Error).message }, 'failed authentication not counted'),
  });
}

/**
 * The console's sign-in throttle by source address, on top of the per-account lock of ConsoleSessions: one address
 * trying many accounts is stopped too. Counted apart from the partner API's failures (another key scope), so a
 * partner's bad secrets never lock operators out of the console, nor the reverse.
 */
export function consoleSignInThrottle(config: Config, database: Database, log: FastifyBaseLogger): AuthThrottle {
  return new AuthThrottle({
    // Sign-ins carry no client id; accounts have their own lock.
    limitPerClient: Number.MAX_SAFE_INTEGER,
    limitPerAddress: config.CONSOLE_SIGNIN_FAILURES_PER_ADDRESS,
    windowMs: config.AUTH_FAILURE_WINDOW_SECONDS * 1000,
    counter: sharedCounter(database, 'console-'),
    onLockout: ({ value, failures, until }) =>
      log.warn({ address: value, failures, until: until.toISOString() }, 'console sign-in locked out for an address'),
    onError: (err) => log.warn({ err: (err as Error).message }, 'failed console sign-in not counted'),
  });
}

/** Counts in the database shared by every instance, under keys of one scope. */
function sharedCounter(database: Database, scope: string): FailureCounter {
  return {
    async count(keys, windowStart) {
      const counts = await countAuthFailures(
        database.db,
        keys.map((key) => scope + key),
        windowStart,
      );
      return new Map([...counts].map(([key, n]) => [key.slice(scope.length), n]));
    },
    prune: (before) => pruneAuthFailures(database.db, before),
  };
}
