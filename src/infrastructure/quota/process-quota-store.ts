import type { QuotaStore, QuotaStoreState, RateLimitCallback } from './quota-store.js';

interface Window {
  start: number;
  count: number;
}

/**
 * Quota counts held in this process: the store of the embedded database. Only one process can open an embedded
 * data directory (data-dir-lock.ts), so this process is every instance there is and its count is exact, without a
 * database write per request.
 *
 * Why not the database there too: PGlite answers in the same turn of the event loop, so no two checks are ever in
 * flight together and coalescing adds none up; every request paid an upsert and its commit (~0.6 ms of CPU, GET /ping
 * at 1,000 requests/s instead of tens of thousands). What is given up: counts restart with the process.
 */
export class ProcessQuotaStore implements QuotaStore {
  /** One window per partner: a new window replaces the last, so the map never outgrows the partners. */
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  incr(key: string, callback: RateLimitCallback, timeWindow: number): void {
    const now = this.now();
    const start = Math.floor(now / timeWindow) * timeWindow;
    let window = this.windows.get(key);
    if (window?.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    callback(null, { current: window.count, ttl: start + timeWindow - now });
  }

  child(): this {
    return this;
  }

  state(): QuotaStoreState {
    return { backend: 'process', mode: 'shared', fallbackDecisions: 0 };
  }

  stop(): void {
    this.windows.clear();
  }
}
