import { LocalWindowCounts } from './local-window-counts.js';
import type { QuotaCallback, QuotaStore, QuotaStoreState } from './quota-store.js';

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
  private readonly counts = new LocalWindowCounts();

  constructor(private readonly now: () => number = Date.now) {}

  incr(key: string, callback: QuotaCallback, timeWindow: number): void {
    const now = this.now();
    const start = Math.floor(now / timeWindow) * timeWindow;
    callback({ current: this.counts.add(key, start), ttl: start + timeWindow - now });
  }

  state(): QuotaStoreState {
    return { backend: 'process', mode: 'shared', fallbackDecisions: 0 };
  }

  stop(): void {
    this.counts.clear();
  }
}
