import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/*
 * The embedded database runs PostgreSQL in single-user mode, where autovacuum never runs: without this, its tables
 * would never be vacuumed (dead rows of every UPDATE and DELETE kept for ever, transaction ids never frozen until
 * PostgreSQL refuses writes to avoid wraparound) nor analysed (every plan made on default estimates). Housekeeping
 * does autovacuum's work there, by autovacuum's default rules, from the same cumulative statistics (which the
 * embedded database keeps in memory: they start again from zero at each start).
 */

export interface MaintenanceDone {
  /** Tables vacuumed (and analysed), as schema.table. */
  vacuumed: string[];
  /** Tables only analysed. */
  analysed: string[];
}

/** Vacuums and analyses the tables autovacuum would have by now, one statement per table. */
export async function vacuumAndAnalyseWhereDue(db: Kysely<DB>): Promise<MaintenanceDone> {
  // Counters of the last second are flushed at the end of a transaction at most once a second: ask for them now.
  await sql`select pg_stat_force_next_flush()`.execute(db);
  // Autovacuum's default thresholds (autovacuum_vacuum_threshold, _scale_factor, _insert_threshold, …, freeze_max_age).
  const { rows } = await sql<{ schema: string; table: string; vacuum: boolean; analyse: boolean }>`
    select s.schemaname as schema, s.relname as table,
      s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
        or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
        or age(c.relfrozenxid) > current_setting('autovacuum_freeze_max_age')::bigint as vacuum,
      s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyse
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    order by s.schemaname, s.relname`.execute(db);
  const done: MaintenanceDone = { vacuumed: [], analysed: [] };
  // A statement per table: the embedded database's one connection serves requests between them.
  for (const { schema, table, vacuum, analyse } of rows) {
    const name = sql.id(schema, table);
    if (vacuum) {
      await sql`vacuum (analyze) ${name}`.execute(db);
      done.vacuumed.push(`${schema}.${table}`);
    } else if (analyse) {
      await sql`analyze ${name}`.execute(db);
      done.analysed.push(`${schema}.${table}`);
    }
  }
  return done;
}
