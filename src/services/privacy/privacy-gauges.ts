import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import { retentionCutoffs, type RetentionPolicy } from '../../domain/privacy.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { readProgress } from '../../infrastructure/repositories/privacy-cursors.js';

/**
 * The de-identification's progress on /metrics (docs/privacy.md), read from the database at scrape time so every
 * instance reports the same figures whichever ran the job: rows de-identified per kind, the last run, and the
 * donations past their retention still identified (held by a receipt's five years, or not reached yet). A scrape
 * that cannot reach the database leaves the gauges as they were.
 */
export function registerPrivacyGauges(registry: Registry, db: Kysely<DB>, policy: RetentionPolicy): void {
  let progress: ReturnType<typeof readProgress> | null = null;
  // One read per scrape, shared by the three gauges.
  const read = () => {
    progress ??= readProgress(db, retentionCutoffs(new Date(), policy).donorData).finally(() => {
      setTimeout(() => (progress = null), 1000).unref();
    });
    return progress;
  };
  new Gauge({
    name: 'privacy_deidentified_rows',
    help: 'Rows the de-identification job replaced the personal details of, by kind (donations, receipts, …).',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const p = await read().catch(() => null);
      for (const total of p?.totals ?? []) this.set({ kind: total.kind }, total.rows);
    },
  });
  new Gauge({
    name: 'privacy_last_run_timestamp_seconds',
    help: 'When the de-identification job last changed something (Unix time).',
    registers: [registry],
    async collect() {
      const p = await read().catch(() => null);
      const last = Math.max(0, ...(p?.totals ?? []).map((t) => (t.lastRunAt ? new Date(t.lastRunAt).getTime() : 0)));
      if (last > 0) this.set(last / 1000);
    },
  });
  new Gauge({
    name: 'privacy_donations_past_retention',
    help: 'Donations past DONOR_DATA_RETENTION_YEARS still identified: held by a receipt, or not reached yet.',
    registers: [registry],
    async collect() {
      const p = await read().catch(() => null);
      if (p) this.set(p.donationsLeft);
    },
  });
}
