import { sql, type Kysely } from 'kysely';
import type { DB } from './db/schema.js';

interface WindowState {
  windowStart: number;
  windowMs: number;
  /** Count in the shared table at the last sync (all instances). */
  shared: number;
  /** Requests counted here and being written by the sync in flight. */
  inFlight: number;
  /** Requests counted here since the last sync started. */
  pending: number;
}

export interface QuotaStoreOptions {
  syncIntervalMs: number;
  now?: () => number;
  onSyncError?: (err: unknown) => void;
}

/**
 * Fixed-window request counters shared by every instance through PostgreSQL, without a database round trip per
 * request: each instance counts locally and merges its counts into `quota_counters` every `syncIntervalMs`,
 * reading back the total of all instances. A partner can therefore exceed its quota by at most what the other
 * instances served within one sync interval. If the database is unreachable, counting goes on locally and the
 * counts are merged once it is back.
 *
 * Implements the store interface of @fastify/rate-limit (`incr(key, cb, timeWindow)` and `child()`).
 */
export class SharedQuotaStore {
  private readonly windows = new Map<string, WindowState>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: QuotaStoreOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.sync(), this.options.syncIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sync();
  }

  incr(key: string, callback: (err: Error | null, result: { current: number; ttl: number }) => void, timeWindow: number): void {
    const now = this.now();
    const windowStart = Math.floor(now / timeWindow) * timeWindow;
    let state = this.windows.get(key);
    if (!state || state.windowStart !== windowStart) {
      state = { windowStart, windowMs: timeWindow, shared: 0, inFlight: 0, pending: 0 };
      this.windows.set(key, state);
    }
    state.pending += 1;
    callback(null, { current: state.shared + state.inFlight + state.pending, ttl: windowStart + timeWindow - now });
  }

  child(): this {
    return this;
  }

  /** Merges local counts into the shared table and refreshes every active window's total. */
  sync(): Promise<void> {
    this.syncing ??= this.doSync().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async doSync(): Promise<void> {
    const now = this.now();
    for (const [key, state] of this.windows) {
      if (state.windowStart + state.windowMs <= now && state.pending === 0 && state.inFlight === 0) this.windows.delete(key);
    }
    const batch = [...this.windows].map(([key, state]) => ({ key, state, delta: state.pending }));
    if (batch.length === 0) return;
    for (const item of batch) {
      item.state.pending -= item.delta;
      item.state.inFlight += item.delta;
    }
    try {
      const result = await sql<{ partner_id: string; window_start: Date; count: number }>`
        insert into quota_counters as q (partner_id, window_start, count)
        select * from unnest(${batch.map((b) => b.key)}::uuid[], ${batch.map((b) => new Date(b.state.windowStart).toISOString())}::timestamptz[], ${batch.map((b) => b.delta)}::int[])
        on conflict (partner_id, window_start) do update set count = q.count + excluded.count
        returning partner_id, window_start, count`.execute(this.db);
      const totals = new Map(result.rows.map((row) => [`${row.partner_id}@${new Date(row.window_start).getTime()}`, row.count]));
      for (const { key, state, delta } of batch) {
        state.inFlight -= delta;
        state.shared = totals.get(`${key}@${state.windowStart}`) ?? state.shared + delta;
      }
    } catch (err) {
      for (const { state, delta } of batch) {
        state.inFlight -= delta;
        state.pending += delta;
      }
      this.options.onSyncError?.(err);
    }
  }

  /** Old windows are of no use to anyone; called from time to time. */
  async prune(olderThanMs = 24 * 3600_000): Promise<void> {
    await this.db.deleteFrom('quota_counters').where('window_start', '<', new Date(this.now() - olderThanMs)).execute();
  }
}
