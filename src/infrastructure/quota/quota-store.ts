import CircuitBreaker from 'opossum';
import type { QuotaCounter } from './counters.js';
import { TokenLeases } from './token-leases.js';
import { LocalWindowCounts } from './local-window-counts.js';

export interface QuotaStoreOptions {
  /** A quota check slower than this counts as a failure of the shared store; false: only errors do. */
  timeoutMs: number | false;
  /** While the shared store is failing, it is tried again this often (one probe request). */
  retryAfterMs: number;
  /**
   * While the shared store is down, each instance allows this share of a partner's quota (1 = the whole quota per
   * instance; the instance count = the same aggregate bound as normal, if traffic is balanced evenly).
   */
  fallbackDivisor: number;
  now?: () => number;
  /** Told when the store switches to per-instance counting and back. */
  onModeChange?: (mode: QuotaStoreMode, detail: { backend: string }) => void;
}

export type QuotaStoreMode = 'shared' | 'fallback';

export interface QuotaStoreState {
  /** Where counts live: the shared store, or this process (the embedded database's only instance). */
  backend: QuotaCounter['backend'] | 'process';
  mode: QuotaStoreMode;
  /** Requests counted per instance because the shared store failed or was skipped, since start. */
  fallbackDecisions: number;
}

/** A request counted: its place in the window (1 for the first) and the milliseconds left of the window. */
export interface QuotaCount {
  current: number;
  ttl: number;
}

/** Told a request's count: exactly once, and at once when the store knows it without I/O. */
export type QuotaCallback = (count: QuotaCount) => void;

/**
 * Counts requests per key in fixed windows (the quota plugin's store). A store never fails a request: it falls back
 * to counting in the process.
 */
export interface QuotaStore {
  incr(key: string, callback: QuotaCallback, timeWindow: number, max: number): void;
  state(): QuotaStoreState;
  stop(): void;
}

/** Checks failing one after the other that open the breaker at once, whatever the error rate of the last second. */
const FAILURES_IN_A_ROW_TO_OPEN = 10;

/**
 * Fixed-window request counters shared by every instance (PostgreSQL or Redis), behind a circuit breaker: a check
 * that fails or is slower than `timeoutMs` is counted by a per-instance fallback limiter instead, and once failures
 * dominate the breaker opens and the shared store is not called at all (no request waits on a dead dependency)
 * until a probe every `retryAfterMs` finds it back. A quota outage never becomes an API outage, and quotas stay
 * enforced per instance meanwhile.
 */
export class SharedQuotaStore implements QuotaStore {
  private readonly breaker: CircuitBreaker<[string, number, number, number], number>;
  /** Tokens claimed from the shared counter through the breaker, one statement in flight per window. */
  private readonly leases: TokenLeases;
  private readonly local = new LocalWindowCounts();
  private readonly now: () => number;
  private fallbackDecisions = 0;
  private failuresInARow = 0;

  constructor(
    private readonly counter: QuotaCounter,
    private readonly options: QuotaStoreOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.breaker = new CircuitBreaker(counter.incrementBy.bind(counter), {
      timeout: options.timeoutMs,
      resetTimeout: options.retryAfterMs,
      errorThresholdPercentage: 50,
      volumeThreshold: 3,
      // A short window: an outage outweighs the successes just before it within a second.
      rollingCountTimeout: 1000,
      rollingCountBuckets: 10,
    });
    // Every request of a partner updates one counter: checks are answered from tokens claimed ahead, or share a
    // round trip, rather than queue on the row's lock (PostgreSQL) or pay one each (Redis); the breaker times it.
    this.leases = new TokenLeases(
      (key, start, ms, requests) => this.breaker.fire(key, start, ms, requests),
      undefined,
      this.now,
    );
    // A failed probe re-opens the breaker every `retryAfterMs`: tell only the changes.
    let told: QuotaStoreMode = 'shared';
    const tell = (mode: QuotaStoreMode) => () => {
      if (mode !== told) options.onModeChange?.(mode, { backend: counter.backend });
      told = mode;
    };
    this.breaker.on('open', tell('fallback'));
    this.breaker.on('close', tell('shared'));
  }

  incr(key: string, callback: QuotaCallback, timeWindow: number, max: number): void {
    const now = this.now();
    const windowStart = Math.floor(now / timeWindow) * timeWindow;
    const ttl = windowStart + timeWindow - now;
    // While open, skip the breaker's own rejection (an Error with a stack per request); its timer still moves it to
    // half-open, and the next request then probes the shared store.
    if (this.breaker.opened) return callback({ current: this.countLocally(key, windowStart), ttl });
    const taken = this.leases.take(key, windowStart, timeWindow, max);
    if (typeof taken === 'number') return callback({ current: taken, ttl });
    taken.then(
      (current) => {
        this.failuresInARow = 0;
        callback({ current, ttl });
      },
      () => {
        // The rolling error rate alone would wait for a busy second's successes to age out of the window.
        this.failuresInARow += 1;
        if (this.failuresInARow >= FAILURES_IN_A_ROW_TO_OPEN && this.breaker.closed) this.breaker.open();
        callback({ current: this.countLocally(key, windowStart), ttl });
      },
    );
  }

  state(): QuotaStoreState {
    return {
      backend: this.counter.backend,
      mode: this.breaker.closed ? 'shared' : 'fallback',
      fallbackDecisions: this.fallbackDecisions,
    };
  }

  stop(): void {
    this.breaker.shutdown();
    this.leases.clear();
  }

  /** Scaled by the divisor, so the quota plugin's comparison with the partner's quota applies the share. */
  private countLocally(key: string, windowStart: number): number {
    this.fallbackDecisions += 1;
    return this.local.add(key, windowStart) * this.options.fallbackDivisor;
  }
}
