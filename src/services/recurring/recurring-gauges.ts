import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import { DEBIT_STATUSES, PLAN_STATUSES } from '../../domain/recurring.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { countDebitsByStatus, countPlansByStatus } from '../../infrastructure/repositories/recurring-admin.js';

/** A debit's statuses as the gauge counts them: a disputed debit is `disputed`, no longer `succeeded`. */
const DEBIT_GAUGE_STATUSES = [...DEBIT_STATUSES, 'disputed'] as const;

/**
 * Registers the recurring donations' gauges on `registry` (the app's, for /metrics): debits and plans by status,
 * each counted with one GROUP BY at scrape time (docs/recurring.md, "A debit's life"). Every known status is set,
 * zero included, and nothing else: the label's values stay the fixed list whatever the table holds. A scrape that
 * cannot reach the database leaves the gauges at their last values rather than failing the whole /metrics answer.
 */
export function registerRecurringGauges(registry: Registry, db: Kysely<DB>): void {
  statusGauge(registry, {
    name: 'debits',
    help: 'Debits by status: scheduled, processing, succeeded, failed, disputed (collected, then disputed).',
    statuses: DEBIT_GAUGE_STATUSES,
    count: () => countDebitsByStatus(db),
  });
  statusGauge(registry, {
    name: 'recurring_plans',
    help: 'Recurring donations by status: active, past_due, canceled, completed.',
    statuses: PLAN_STATUSES,
    count: () => countPlansByStatus(db),
  });
}

function statusGauge(
  registry: Registry,
  options: {
    name: string;
    help: string;
    statuses: readonly string[];
    count: () => Promise<{ status: string; count: number }[]>;
  },
): void {
  new Gauge({
    name: options.name,
    help: options.help,
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await options.count().catch(() => null);
      if (!rows) return;
      const counts = new Map(rows.map((row) => [row.status, row.count]));
      for (const status of options.statuses) this.set({ status }, counts.get(status) ?? 0);
    },
  });
}
