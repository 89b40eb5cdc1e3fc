import type { Kysely } from 'kysely';
import { Counter, Gauge, type Registry } from 'prom-client';
import { ApiError } from '../../api-errors.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  readReconciliationBacklog,
  type ReconciliationBacklog,
} from '../../infrastructure/repositories/reconciliation-backlog.js';

export interface BacklogBounds {
  /** 0: no bound on the count. */
  maxBatches: number;
  /** 0: no bound on the age of the oldest waiting batch. */
  maxAgeSeconds: number;
  retryAfterSeconds: number;
}

/** How long one instance trusts a reading: a read a second, whatever the rate of batches. */
const READING_TTL_MS = 1000;
/** Counted up to this when there is no bound on the count, so that the gauge still says something bounded. */
const GAUGE_COUNT_CAP = 100_000;

/**
 * The door of POST /remittances (docs/decisions/0081-remittance-backlog-refused-at-the-door.md): while the batches
 * waiting for reconciliation are over REMITTANCE_BACKLOG_MAX_BATCHES, or the oldest waiting has waited
 * REMITTANCE_BACKLOG_MAX_AGE_SECONDS, a new batch is refused with 503 and Retry-After rather than accepted and
 * left to wait. One reading per instance per second, shared by every request in that second (and by the ones
 * arriving while it is read); the gauges of /metrics show the last one. Owned by one app: nothing module-wide.
 */
export class BacklogGate {
  private reading: (ReconciliationBacklog & { at: number }) | null = null;
  private pending: Promise<ReconciliationBacklog & { at: number }> | null = null;
  private refused: Counter | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly bounds: BacklogBounds,
    private readonly clock: () => number = Date.now,
  ) {}

  private get enabled(): boolean {
    return this.bounds.maxBatches > 0 || this.bounds.maxAgeSeconds > 0;
  }

  /**
   * The refusal a new batch gets now, or null. Read before the batch's transaction opens, so that the transaction
   * holds no connection while it waits on the reading; a replay of an accepted batch is answered whatever this says.
   */
  async refusal(): Promise<ApiError | null> {
    if (!this.enabled) return null;
    const { batches, oldestWaitingSeconds } = await this.current();
    const { maxBatches, maxAgeSeconds, retryAfterSeconds } = this.bounds;
    let cause: string | null = null;
    if (maxBatches > 0 && batches >= maxBatches) cause = `${maxBatches} or more batches are waiting for reconciliation`;
    else if (maxAgeSeconds > 0 && oldestWaitingSeconds !== null && oldestWaitingSeconds >= maxAgeSeconds)
      cause = `The oldest batch waiting for reconciliation has waited ${Math.floor(oldestWaitingSeconds)} s`;
    if (cause === null) return null;
    return new ApiError('REMITTANCE_BACKLOG', `${cause}; retry in ${retryAfterSeconds} s`, {
      'retry-after': String(retryAfterSeconds),
    });
  }

  /** Counts a batch refused (the route calls it when it answers the refusal). */
  countRefusal(): void {
    this.refused?.inc();
  }

  /** The backlog's gauges and the refusals' counter, in an app's registry. */
  register(registry: Registry): void {
    const last = () => this.reading;
    new Gauge({
      name: 'remittance_backlog_batches',
      help: 'Batches waiting for or under reconciliation at the last reading of POST /remittances (capped at the bound).',
      registers: [registry],
      collect() {
        const r = last();
        if (r) this.set(r.batches);
      },
    });
    new Gauge({
      name: 'remittance_backlog_oldest_waiting_seconds',
      help: 'Age of the oldest batch not yet taken by a reconciliation worker, at the last reading.',
      registers: [registry],
      collect() {
        const r = last();
        if (r) this.set(r.oldestWaitingSeconds ?? 0);
      },
    });
    this.refused = new Counter({
      name: 'remittance_batches_refused_total',
      help: 'Batches refused 503 FUNDRAISER:REMITTANCE_BACKLOG while reconciliation caught up.',
      registers: [registry],
    });
  }

  private current(): Promise<ReconciliationBacklog & { at: number }> {
    const now = this.clock();
    if (this.reading && now - this.reading.at < READING_TTL_MS) return Promise.resolve(this.reading);
    this.pending ??= readReconciliationBacklog(this.db, {
      countUpTo: this.bounds.maxBatches > 0 ? this.bounds.maxBatches : GAUGE_COUNT_CAP,
    })
      .then((backlog) => {
        this.reading = { ...backlog, at: now };
        return this.reading;
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }
}
