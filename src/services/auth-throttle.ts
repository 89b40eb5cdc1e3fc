/**
 * Failed-authentication throttling (issue 10): after `limitPerClient` failures of one client id, or
 * `limitPerAddress` failures from one source address, within a fixed window, every request of that client id or
 * address is answered 429 until the window ends, whether its secret is right or not (otherwise the lock-out would
 * still tell a guesser when it is right). Other client ids and addresses are unaffected.
 *
 * Counts are shared by every instance through PostgreSQL: each failure adds to the shared counter and reads back
 * the total, so a lock-out starts as soon as the total over all instances reaches the limit. An instance learns
 * of a lock-out from its own next failure for that key, so across N instances at most N - 1 attempts beyond the
 * limit can be checked in one window.
 */
export interface FailureCounter {
  /** Adds one failure to each key in the window and returns each key's total over every instance. */
  count(keys: string[], windowStart: Date): Promise<Map<string, number>>;
  prune(before: Date): Promise<void>;
}

export interface AuthThrottleOptions {
  limitPerClient: number;
  limitPerAddress: number;
  windowMs: number;
  counter: FailureCounter;
  now?: () => number;
  onLockout: (details: { key: 'client_id' | 'address'; value: string; failures: number; until: Date }) => void;
  onError: (err: unknown) => void;
}

/** Client ids are whatever a caller sends; a bounded key keeps the counter table bounded too. */
const clientKey = (clientId: string) => `client:${clientId.slice(0, 200)}`;
const addressKey = (address: string) => `address:${address}`;

export class AuthThrottle {
  /** Locked keys and when their lock ends (ms), as this instance learnt them. */
  private readonly locked = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: AuthThrottleOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Seconds until the client id or the address may try again; null when neither is locked out. */
  retryAfterSeconds(clientId: string | undefined, address: string): number | null {
    const now = this.now();
    let until = 0;
    for (const key of [clientId === undefined ? null : clientKey(clientId), addressKey(address)]) {
      if (key === null) continue;
      const end = this.locked.get(key);
      if (end === undefined) continue;
      if (end <= now) this.locked.delete(key);
      else until = Math.max(until, end);
    }
    return until === 0 ? null : Math.max(1, Math.ceil((until - now) / 1000));
  }

  /** Counts a failure; a counting outage never turns an authentication answer into an error. */
  async recordFailure(clientId: string | undefined, address: string): Promise<void> {
    const now = this.now();
    const windowStart = Math.floor(now / this.options.windowMs) * this.options.windowMs;
    const until = windowStart + this.options.windowMs;
    const keys = [addressKey(address), ...(clientId === undefined ? [] : [clientKey(clientId)])];
    try {
      const counts = await this.options.counter.count(keys, new Date(windowStart));
      let lockedNow = false;
      for (const [key, failures] of counts) {
        const isClient = key.startsWith('client:');
        const limit = isClient ? this.options.limitPerClient : this.options.limitPerAddress;
        if (failures < limit || this.locked.has(key)) continue;
        this.locked.set(key, until);
        lockedNow = true;
        const value = isClient ? (clientId ?? '') : address;
        this.options.onLockout({ key: isClient ? 'client_id' : 'address', value, failures, until: new Date(until) });
      }
      if (lockedNow) await this.options.counter.prune(new Date(windowStart - this.options.windowMs));
    } catch (err) {
      this.options.onError(err);
    }
  }
}
