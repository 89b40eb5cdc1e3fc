import { Gauge } from 'prom-client';
import type { Database } from '../db/connect.js';
import type { MetricsCollector } from './metrics.js';

/**
 * Gauges read from the database at scrape time: mandates by status, remittance entries by outcome, and the
 * connection pool's use. Counted with GROUP BY on each scrape (one query each, indexes not needed at the scrape
 * interval of a few seconds for the tables' expected sizes); a failing query leaves the gauge empty, never fails
 * the scrape.
 */
export function databaseGauges(database: Database): MetricsCollector {
  return (registry) => {
    new Gauge({
      name: 'mandates',
      help: 'Mandates by setup-intent status.',
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const rows = await database.db
          .selectFrom('mandates')
          .select(({ fn }) => ['status', fn.countAll<string>().as('count')])
          .groupBy('status')
          .execute()
          .catch(() => []);
        for (const row of rows) this.set({ status: row.status }, Number(row.count));
      },
    });
    new Gauge({
      name: 'remittance_entries',
      help: 'Remittance entries by reconciliation outcome (pending: not reconciled yet).',
      labelNames: ['outcome'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const rows = await database.db
          .selectFrom('remittance_entries')
          .select(({ fn }) => ['outcome', fn.countAll<string>().as('count')])
          .groupBy('outcome')
          .execute()
          .catch(() => []);
        for (const row of rows) this.set({ outcome: row.outcome ?? 'pending' }, Number(row.count));
      },
    });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state (PostgreSQL only): total, idle, waiting (requests queued), max.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const use = database.poolUse?.();
        if (!use) return;
        for (const [state, value] of Object.entries(use)) this.set({ state }, value);
      },
    });
  };
}
