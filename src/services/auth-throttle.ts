import type { Kysely } from 'kysely';
import type { DB } from '../infrastructure/db/schema.js';
import { countAuthFailures } from '../infrastructure/repositories/auth-failures.js';

/**
 * Failed-authentication throttling by source address. After `limitPerAddress` failures from one address within a
 * fixed window, every request from that address is answered 429 until the window ends, whether its credential is
 * right or not (otherwise the lock-out would still tell a guesser when it is right). Every other address, the same
 * partner's other servers included, is unaffected.
 *
 * Nothing is ever locked by client id: a client id is not a secret (it travels in every request and sits in
 * partners' logs), so a lock by client id would let anyone stop a partner's integration with ten bad requests.
 * Guessing a 260-bit secret needs no lock-out (docs/security.md, "Guessing a secret"); failures against a known
 * client id are counted instead, so operators see someone guessing and rotate the credential.
 *
 * Counts are shared by every instance through the database: each failure adds to the shared counter and reads back
 * the total, so a lock-out starts as soon as the total over all instances reaches the limit. An instance learns
 * of a lock-out from its own next failure for that address, so across N instances at most N - 1 attempts beyond
 * the limit can be checked in one window.
 */
export interface FailureCounter {
  /** Adds one failure to each key in the window and returns each key's total over every instance. */
  count(keys: string[], windowStart: Date): Promise<Map<string, number>>;
}

/** What a failed authentication was, as far as the throttle cares. */
export interface Failure {
  address: string;
  /** The client id when it names a credential whose secret was wrong: someone may be guessing it. */
  guessedClientId?: string;
}

export interface AuthThrottleOptions {
  limitPerAddress: number;
  /** Failures against one known client id in a window that make the warning (once per window, on any instance). */
  warnPerClient: number;
  windowMs: number;
  counter: FailureCounter;
  now?: () => number;
  onLockout: (details: { address: string; failures: number; until: Date }) => void;
  onGuessing: (details: { clientId: string; failures: number; windowStart: Date }) => void;
  onError: (err: unknown) => void;
}

const addressKey = (address: string) => `address:${address}`;
const clientKey = (clientId: string) => `client:${clientId}`;

export class AuthThrottle {
  /** Locked addresses and when their lock ends (ms), as this instance learnt them. */
  private readonly locked = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: AuthThrottleOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Seconds until the address may try again; null when it is not locked out. */
  retryAfterSeconds(address: string): number | null {
    const end = this.locked.get(address);
    if (end === undefined) return null;
    const now = this.now();
    if (end <= now) {
      this.locked.delete(address);
      return null;
    }
    return Math.max(1, Math.ceil((end - now) / 1000));
  }

  /** Counts a failure; a counting outage never turns an authentication answer into an error. */
  async recordFailure({ address, guessedClientId }: Failure): Promise<void> {
    const now = this.now();
    const windowStart = Math.floor(now / this.options.windowMs) * this.options.windowMs;
    const until = windowStart + this.options.windowMs;
    const keys = [addressKey(address), ...(guessedClientId === undefined ? [] : [clientKey(guessedClientId)])];
    try {
      const counts = await this.options.counter.count(keys, new Date(windowStart));
      const failures = counts.get(addressKey(address)) ?? 0;
      if (failures >= this.options.limitPerAddress && !this.locked.has(address)) {
        this.locked.set(address, until);
        this.options.onLockout({ address, failures, until: new Date(until) });
      }
      if (guessedClientId === undefined) return;
      // Exactly one failure in the window has this count, whichever instance counted it: one warning per window.
      const guesses = counts.get(clientKey(guessedClientId)) ?? 0;
      if (guesses === this.options.warnPerClient)
        this.options.onGuessing({ clientId: guessedClientId, failures: guesses, windowStart: new Date(windowStart) });
    } catch (err) {
      this.options.onError(err);
    }
  }
}

/** Counts in the database shared by every instance, under keys of one scope (the partner API's, the console's). */
export function sharedFailureCounter(db: Kysely<DB>, scope: string): FailureCounter {
  return {
    async count(keys, windowStart) {
      const counts = await countAuthFailures(
        db,
        keys.map((key) => scope + key),
        windowStart,
      );
      return new Map([...counts].map(([key, n]) => [key.slice(scope.length), n]));
    },
  };
}
