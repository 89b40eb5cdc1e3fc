import { CompiledQuery, type Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Database } from '../db/connect.js';
import type { DB } from '../db/schema.js';

/**
 * pg-boss talks to the database through `executeSql(text, values)`. Giving it ours instead of letting it open its
 * own pool means one pool on PostgreSQL and, on embedded PGlite (a single connection), that its queries queue
 * behind Kysely's instead of slipping into someone else's open transaction.
 */
export function databaseExecutor(database: Database): PgBoss.Db {
  return {
    async executeSql(text, values) {
      // Parameterless texts may be scripts of several statements (installation, maintenance under BEGIN/COMMIT),
      // which PGlite's extended protocol refuses.
      if (!values || values.length === 0) return database.runScript(text);
      return run(database.db, text, values);
    },
  };
}

/**
 * An executor bound to an open transaction, so that a job is inserted atomically with the rows that need it:
 * if the transaction rolls back, the job never existed. pg-boss only sends single parameterised statements here.
 */
export function transactionExecutor(trx: Kysely<DB>): PgBoss.Db {
  return { executeSql: (text, values) => run(trx, text, values ?? []) };
}

async function run(db: Kysely<DB>, text: string, values: unknown[]) {
  // pg turns undefined into NULL; PGlite would refuse it.
  const result = await db.executeQuery(
    CompiledQuery.raw(
      text,
      values.map((value) => (value === undefined ? null : value)),
    ),
  );
  return { rows: result.rows as Record<string, unknown>[] };
}
