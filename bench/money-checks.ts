import { sql } from 'kysely';
import { loadConfig } from '../src/config/index.js';
import { openDatabase } from '../src/composition.js';
import type { BenchDatabase } from './database.js';

export interface ExactlyOnce {
  /** Debits of the bench's plans, distinct (plan, date) among them, and simulator payments (tries) of them. */
  debits: { debits: number; distinctDebits: number; payments: number; paidDebits: number };
  /** Per resumed batch: settlements, distinct donations settled, and runs started (attempts). */
  resumed: { batchId: string; settlements: number; distinctDonations: number; attempts: number }[];
}

/** Read once the services have stopped (an embedded data directory has one owner at a time). */
export async function checkExactlyOnce(database: BenchDatabase, resumedBatches: string[]): Promise<ExactlyOnce> {
  const config = loadConfig(
    database.kind === 'postgres' ? { DATABASE_URL: database.url } : { DATA_DIR: database.dataDir },
  );
  const opened = await openDatabase(config);
  try {
    const { rows } = await sql<{ debits: number; distinct_debits: number; payments: number; paid_debits: number }>`
      select (select count(*)::int from debits where plan_id is not null) as debits,
             (select count(*)::int from (select distinct plan_id, due_date from debits where plan_id is not null) d)
               as distinct_debits,
             (select count(*)::int from simulator_payments) as payments,
             (select count(distinct debit_id)::int from simulator_payments) as paid_debits`.execute(opened.db);
    const resumed = [];
    for (const batchId of resumedBatches) {
      const settled = await sql<{ n: number; distinct: number; attempts: number }>`
        select count(*)::int as n, count(distinct s.donation_id)::int as distinct,
               (select attempts from remittance_batches where id = ${batchId}) as attempts
        from donation_settlements s where s.batch_id = ${batchId}`.execute(opened.db);
      const r = settled.rows[0]!;
      resumed.push({ batchId, settlements: r.n, distinctDonations: r.distinct, attempts: r.attempts });
    }
    const d = rows[0]!;
    return {
      debits: { debits: d.debits, distinctDebits: d.distinct_debits, payments: d.payments, paidDebits: d.paid_debits },
      resumed,
    };
  } finally {
    await opened.close();
  }
}
