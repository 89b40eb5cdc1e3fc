import type { Kysely } from 'kysely';
import type { DB } from '../infrastructure/db/schema.js';
import { addRejections } from '../infrastructure/repositories/console-dashboard.js';

export type RejectionKind = 'authentication' | 'quota';

export interface RejectionCounts {
  day: string;
  kind: RejectionKind;
  partnerId: string;
  count: number;
}

export interface RejectionCounterOptions {
  intervalMs: number;
  now: () => Date;
  onError: (err: unknown) => void;
}

/**
 * Counts refused partner calls (401, 429) per UTC day, kind and partner, for the console's dashboard. Counts are
 * kept in this instance and added to the shared table every few seconds: a flood of bad credentials costs one
 * statement per interval, not one write per refused call. A failed write keeps its counts for the next attempt.
 */
class RejectionCounter {
  private pending = new Map<string, RejectionCounts>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly save: (counts: RejectionCounts[]) => Promise<void>,
    private readonly options: RejectionCounterOptions,
  ) {}

  record(kind: RejectionKind, partnerId: string | null | undefined): void {
    this.add({ day: this.options.now().toISOString().slice(0, 10), kind, partnerId: partnerId ?? '', count: 1 });
  }

  private add(counts: RejectionCounts): void {
    const key = `${counts.day}|${counts.kind}|${counts.partnerId}`;
    const entry = this.pending.get(key);
    if (entry) entry.count += counts.count;
    else this.pending.set(key, { ...counts });
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.intervalMs);
    this.timer.unref();
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.save(batch);
    } catch (err) {
      for (const counts of batch) this.add(counts);
      this.options.onError(err);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }
}

/** A counter that adds its counts to the shared table of `db`. */
export const rejectionCounterOn = (db: Kysely<DB>, options: RejectionCounterOptions) =>
  new RejectionCounter((counts) => addRejections(db, counts), options);
